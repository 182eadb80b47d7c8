-- AlterTable
ALTER TABLE "ConformanceRun" DROP COLUMN "report",
ADD COLUMN     "forced" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "phaseStartedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "probes" JSONB,
ADD COLUMN     "probesStartedAt" TIMESTAMP(3),
ADD COLUMN     "revokedAt" TIMESTAMP(3),
ADD COLUMN     "sourceAdvancedAt" TIMESTAMP(3),
ADD COLUMN     "timeline" JSONB NOT NULL DEFAULT '[]';

-- CreateIndex
CREATE INDEX "ConformanceRun_reportExpiresAt_idx" ON "ConformanceRun"("reportExpiresAt");
