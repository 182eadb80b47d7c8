-- AlterTable
ALTER TABLE "Provider" ADD COLUMN     "location" TEXT NOT NULL DEFAULT '';
