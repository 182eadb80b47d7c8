-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN     "withCursor" BOOLEAN NOT NULL DEFAULT false;
