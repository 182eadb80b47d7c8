-- AlterTable
ALTER TABLE "Provider" ADD COLUMN     "checkError" TEXT,
ADD COLUMN     "checkedAt" TIMESTAMP(3),
ADD COLUMN     "disabledAt" TIMESTAMP(3),
ADD COLUMN     "discovery" JSONB;
