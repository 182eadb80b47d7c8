-- AlterTable
ALTER TABLE "Source" ADD COLUMN     "nextSyncAt" TIMESTAMP(3),
ADD COLUMN     "syncFailures" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Source_nextSyncAt_idx" ON "Source"("nextSyncAt");
