-- AlterEnum
ALTER TYPE "SourceSyncStatus" ADD VALUE 'partial';

-- AlterTable
ALTER TABLE "Application" ADD COLUMN     "redirectUrls" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "Source" ADD COLUMN     "connectSessionId" TEXT,
ADD COLUMN     "fhirPatientId" TEXT;

-- AlterTable
ALTER TABLE "ConnectSession" ADD COLUMN     "connectTokenHash" TEXT NOT NULL,
ADD COLUMN     "consentDays" INTEGER NOT NULL DEFAULT 365,
ADD COLUMN     "externalUserId" TEXT,
ADD COLUMN     "grantedCategories" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "providerIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "redirectUrl" TEXT;

-- AlterTable
ALTER TABLE "ConsentReceipt" ADD COLUMN     "patientTokenHash" TEXT;

-- CreateTable
CREATE TABLE "SourceAuthorization" (
    "id" TEXT NOT NULL,
    "connectSessionId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "codeVerifierEncrypted" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "SourceAuthorization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EhrAuthorizationCode" (
    "codeHash" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "patientKey" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "codeChallenge" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EhrAuthorizationCode_pkey" PRIMARY KEY ("codeHash")
);

-- CreateTable
CREATE TABLE "EhrRefreshToken" (
    "tokenHash" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "patientKey" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "EhrRefreshToken_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "EhrPatientPhase" (
    "providerId" TEXT NOT NULL,
    "patientKey" TEXT NOT NULL,
    "phase" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EhrPatientPhase_pkey" PRIMARY KEY ("providerId","patientKey")
);

-- CreateIndex
CREATE UNIQUE INDEX "SourceAuthorization_state_key" ON "SourceAuthorization"("state");

-- CreateIndex
CREATE INDEX "SourceAuthorization_connectSessionId_idx" ON "SourceAuthorization"("connectSessionId");

-- CreateIndex
CREATE UNIQUE INDEX "ConnectSession_connectTokenHash_key" ON "ConnectSession"("connectTokenHash");

-- CreateIndex
CREATE INDEX "ConnectSession_applicationId_environment_externalUserId_idx" ON "ConnectSession"("applicationId", "environment", "externalUserId");

-- CreateIndex
CREATE UNIQUE INDEX "ConsentReceipt_patientTokenHash_key" ON "ConsentReceipt"("patientTokenHash");

-- AddForeignKey
ALTER TABLE "Source" ADD CONSTRAINT "Source_connectSessionId_fkey" FOREIGN KEY ("connectSessionId") REFERENCES "ConnectSession"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SourceAuthorization" ADD CONSTRAINT "SourceAuthorization_connectSessionId_fkey" FOREIGN KEY ("connectSessionId") REFERENCES "ConnectSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;
