-- AlterTable
ALTER TABLE "ConsentReceipt" ADD COLUMN     "deletionRequestedAt" TIMESTAMP(3);
