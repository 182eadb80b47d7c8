-- CreateEnum
CREATE TYPE "FhirExportStatus" AS ENUM ('accepted', 'running', 'completed', 'failed', 'cancelled', 'expired');

-- CreateTable
CREATE TABLE "FhirExport" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "requesterKeyId" TEXT NOT NULL,
    "status" "FhirExportStatus" NOT NULL DEFAULT 'accepted',
    "groupId" TEXT,
    "types" TEXT[],
    "since" TIMESTAMP(3),
    "requestUrl" TEXT NOT NULL,
    "transactionTime" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "subjectsTotal" INTEGER NOT NULL DEFAULT 0,
    "subjectsDone" INTEGER NOT NULL DEFAULT 0,
    "subjectsSkipped" INTEGER NOT NULL DEFAULT 0,
    "resourcesWritten" INTEGER NOT NULL DEFAULT 0,
    "manifest" JSONB,
    "error" TEXT,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "FhirExport_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FhirExportFile" (
    "id" TEXT NOT NULL,
    "exportId" TEXT NOT NULL,
    "resourceType" TEXT NOT NULL,
    "part" INTEGER NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "bytes" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "FhirExportFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FhirExportChunk" (
    "fileId" TEXT NOT NULL,
    "sequence" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "FhirExportChunk_pkey" PRIMARY KEY ("fileId","sequence")
);

-- CreateIndex
CREATE INDEX "FhirExport_applicationId_environment_status_idx" ON "FhirExport"("applicationId", "environment", "status");

-- CreateIndex
CREATE INDEX "FhirExport_status_expiresAt_idx" ON "FhirExport"("status", "expiresAt");

-- CreateIndex
CREATE INDEX "FhirExportFile_exportId_idx" ON "FhirExportFile"("exportId");

-- AddForeignKey
ALTER TABLE "FhirExport" ADD CONSTRAINT "FhirExport_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FhirExportFile" ADD CONSTRAINT "FhirExportFile_exportId_fkey" FOREIGN KEY ("exportId") REFERENCES "FhirExport"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FhirExportChunk" ADD CONSTRAINT "FhirExportChunk_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "FhirExportFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

