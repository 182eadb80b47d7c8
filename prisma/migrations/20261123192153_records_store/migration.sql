-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('running', 'completed', 'failed');

-- DropIndex
DROP INDEX "Record_subjectId_category_id_idx";

-- AlterTable
ALTER TABLE "ConsentReceipt" ADD COLUMN     "revokedReason" TEXT;

-- AlterTable
ALTER TABLE "Record" ADD COLUMN     "contentHash" TEXT NOT NULL,
ADD COLUMN     "sortAt" TIMESTAMP(3) NOT NULL;

-- CreateTable
CREATE TABLE "SourceImport" (
    "id" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "status" "ImportStatus" NOT NULL DEFAULT 'running',
    "recordCounts" JSONB NOT NULL DEFAULT '{}',
    "skipCounts" JSONB NOT NULL DEFAULT '{}',
    "upserts" INTEGER NOT NULL DEFAULT 0,
    "deletes" INTEGER NOT NULL DEFAULT 0,
    "unchanged" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "SourceImport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SourceImport_sourceId_startedAt_idx" ON "SourceImport"("sourceId", "startedAt");

-- CreateIndex
CREATE INDEX "Record_subjectId_category_sortAt_id_idx" ON "Record"("subjectId", "category", "sortAt" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "SourceImport" ADD CONSTRAINT "SourceImport_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "Source"("id") ON DELETE CASCADE ON UPDATE CASCADE;
