-- AlterTable
ALTER TABLE "SourceImport" ADD COLUMN     "fidelity" JSONB;
