-- AlterTable
ALTER TABLE "SourceImport" ADD COLUMN     "code" TEXT,
ADD COLUMN     "resourcesRead" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "trigger" TEXT NOT NULL DEFAULT 'connect';

-- CreateIndex
CREATE INDEX "SourceImport_startedAt_idx" ON "SourceImport"("startedAt");

-- Imports recorded before the column: their code is the part of the stored error before its first ": ".
UPDATE "SourceImport" SET "code" = split_part("error", ': ', 1) WHERE "status" = 'failed' AND "error" IS NOT NULL;
