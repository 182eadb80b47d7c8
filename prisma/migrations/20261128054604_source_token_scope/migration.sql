-- AlterTable
ALTER TABLE "Source" ADD COLUMN     "tokenScope" TEXT;
