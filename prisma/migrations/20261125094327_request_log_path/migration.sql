-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN     "path" TEXT;
