-- AlterTable
ALTER TABLE "ConsentReceipt" ADD COLUMN     "purgeCounts" JSONB,
ADD COLUMN     "purgedAt" TIMESTAMP(3);
