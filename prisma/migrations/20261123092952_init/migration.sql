-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Environment" AS ENUM ('sandbox', 'live');

-- CreateEnum
CREATE TYPE "ApplicationStatus" AS ENUM ('sandbox', 'active', 'suspended');

-- CreateEnum
CREATE TYPE "SyncMode" AS ENUM ('one_time', 'continuous');

-- CreateEnum
CREATE TYPE "ConnectSessionStatus" AS ENUM ('pending', 'completed', 'cancelled', 'expired');

-- CreateEnum
CREATE TYPE "SimulationState" AS ENUM ('queued', 'connecting', 'importing', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "ConsentStatus" AS ENUM ('active', 'revoked', 'expired');

-- CreateEnum
CREATE TYPE "ChangeType" AS ENUM ('upsert', 'delete');

-- CreateEnum
CREATE TYPE "SourceSyncStatus" AS ENUM ('pending', 'syncing', 'synced', 'failed');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('pending', 'succeeded', 'failed');

-- CreateEnum
CREATE TYPE "IdempotencyState" AS ENUM ('in_progress', 'completed');

-- CreateEnum
CREATE TYPE "ConformanceRunStatus" AS ENUM ('creating', 'open', 'ended', 'cancelled', 'expired');

-- CreateTable
CREATE TABLE "Developer" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Developer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Application" (
    "id" TEXT NOT NULL,
    "developerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" "ApplicationStatus" NOT NULL DEFAULT 'sandbox',
    "productionEnabled" BOOLEAN NOT NULL DEFAULT false,
    "categoryAllowlist" TEXT[],
    "syncMode" "SyncMode" NOT NULL DEFAULT 'one_time',
    "webhookUrl" TEXT,
    "signingSecretEncrypted" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Application_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "name" TEXT NOT NULL DEFAULT 'Default key',
    "displayPrefix" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "conformanceRunId" TEXT,

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Patient" (
    "id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "syntheticForApplicationId" TEXT,
    "scenario" TEXT,
    "purgeAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Patient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Subject" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "patientId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Subject_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Provider" (
    "id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "name" TEXT NOT NULL,
    "fhirBaseUrl" TEXT NOT NULL,
    "authorizeUrl" TEXT NOT NULL,
    "tokenUrl" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSecretEncrypted" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Provider_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Source" (
    "id" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "sourceKey" TEXT,
    "phase" INTEGER NOT NULL DEFAULT 0,
    "connected" BOOLEAN NOT NULL DEFAULT false,
    "syncStatus" "SourceSyncStatus" NOT NULL DEFAULT 'pending',
    "lastError" TEXT,
    "failNextImport" BOOLEAN NOT NULL DEFAULT false,
    "accessTokenEncrypted" TEXT,
    "refreshTokenEncrypted" TEXT,
    "tokenExpiresAt" TIMESTAMP(3),
    "resourceCounts" JSONB NOT NULL DEFAULT '{}',
    "lastSyncedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Source_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConnectSession" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "status" "ConnectSessionStatus" NOT NULL DEFAULT 'pending',
    "categories" TEXT[],
    "subjectId" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),
    "cancelledAt" TIMESTAMP(3),
    "simulationScenario" TEXT,
    "simulationState" "SimulationState",
    "simulationFailureCode" TEXT,
    "conformanceRunId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConnectSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConsentReceipt" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "subjectId" TEXT NOT NULL,
    "connectSessionId" TEXT,
    "categories" TEXT[],
    "status" "ConsentStatus" NOT NULL DEFAULT 'active',
    "grantedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "expiredAt" TIMESTAMP(3),

    CONSTRAINT "ConsentReceipt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Record" (
    "id" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "factKey" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "sources" JSONB NOT NULL,
    "deletedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Record_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RecordChange" (
    "id" BIGSERIAL NOT NULL,
    "subjectId" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "sequence" INTEGER NOT NULL,
    "recordId" TEXT NOT NULL,
    "changeType" "ChangeType" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RecordChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChangeCounter" (
    "subjectId" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "lastSequence" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ChangeCounter_pkey" PRIMARY KEY ("subjectId","category")
);

-- CreateTable
CREATE TABLE "Event" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "responseCode" INTEGER,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMP(3),
    "lastAttemptAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IdempotencyRecord" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "state" "IdempotencyState" NOT NULL DEFAULT 'in_progress',
    "responseStatus" INTEGER,
    "responseBody" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdempotencyRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentCredential" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "parentKeyId" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "categories" TEXT[],
    "operations" TEXT[],
    "purpose" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AgentCredential_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConformanceRun" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "scenario" TEXT NOT NULL,
    "syncMode" "SyncMode" NOT NULL,
    "status" "ConformanceRunStatus" NOT NULL DEFAULT 'creating',
    "phase" TEXT NOT NULL DEFAULT 'session',
    "checks" JSONB NOT NULL DEFAULT '[]',
    "verdict" TEXT,
    "connectSessionId" TEXT,
    "subjectId" TEXT,
    "forcedRateLimits" INTEGER NOT NULL DEFAULT 0,
    "reportToken" TEXT,
    "report" JSONB,
    "reportExpiresAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConformanceRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TefcaSession" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'started',
    "categories" TEXT[],
    "discovered" JSONB NOT NULL DEFAULT '[]',
    "selectedDocumentIds" TEXT[],
    "results" JSONB NOT NULL DEFAULT '[]',
    "version" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TefcaSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RequestLog" (
    "id" BIGSERIAL NOT NULL,
    "requestId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "agentCredentialId" TEXT,
    "applicationId" TEXT,
    "environment" "Environment",
    "conformanceRunId" TEXT,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "subjectId" TEXT,
    "status" INTEGER NOT NULL,
    "latencyMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RequestLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "Developer_email_key" ON "Developer"("email");

-- CreateIndex
CREATE INDEX "Application_developerId_idx" ON "Application"("developerId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_secretHash_key" ON "ApiKey"("secretHash");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_conformanceRunId_key" ON "ApiKey"("conformanceRunId");

-- CreateIndex
CREATE INDEX "ApiKey_applicationId_environment_idx" ON "ApiKey"("applicationId", "environment");

-- CreateIndex
CREATE INDEX "Patient_syntheticForApplicationId_idx" ON "Patient"("syntheticForApplicationId");

-- CreateIndex
CREATE INDEX "Patient_purgeAt_idx" ON "Patient"("purgeAt");

-- CreateIndex
CREATE INDEX "Subject_patientId_idx" ON "Subject"("patientId");

-- CreateIndex
CREATE UNIQUE INDEX "Subject_applicationId_environment_patientId_key" ON "Subject"("applicationId", "environment", "patientId");

-- CreateIndex
CREATE INDEX "Provider_environment_idx" ON "Provider"("environment");

-- CreateIndex
CREATE INDEX "Source_patientId_idx" ON "Source"("patientId");

-- CreateIndex
CREATE UNIQUE INDEX "Source_subjectId_providerId_key" ON "Source"("subjectId", "providerId");

-- CreateIndex
CREATE INDEX "ConnectSession_applicationId_environment_createdAt_idx" ON "ConnectSession"("applicationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "ConsentReceipt_subjectId_status_idx" ON "ConsentReceipt"("subjectId", "status");

-- CreateIndex
CREATE INDEX "ConsentReceipt_applicationId_environment_status_idx" ON "ConsentReceipt"("applicationId", "environment", "status");

-- CreateIndex
CREATE INDEX "ConsentReceipt_status_expiresAt_idx" ON "ConsentReceipt"("status", "expiresAt");

-- CreateIndex
CREATE INDEX "Record_subjectId_category_id_idx" ON "Record"("subjectId", "category", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Record_subjectId_category_factKey_key" ON "Record"("subjectId", "category", "factKey");

-- CreateIndex
CREATE UNIQUE INDEX "RecordChange_subjectId_category_sequence_key" ON "RecordChange"("subjectId", "category", "sequence");

-- CreateIndex
CREATE INDEX "Event_applicationId_environment_createdAt_idx" ON "Event"("applicationId", "environment", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_applicationId_createdAt_idx" ON "WebhookDelivery"("applicationId", "createdAt");

-- CreateIndex
CREATE INDEX "IdempotencyRecord_expiresAt_idx" ON "IdempotencyRecord"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "IdempotencyRecord_applicationId_environment_key_key" ON "IdempotencyRecord"("applicationId", "environment", "key");

-- CreateIndex
CREATE UNIQUE INDEX "AgentCredential_tokenHash_key" ON "AgentCredential"("tokenHash");

-- CreateIndex
CREATE INDEX "AgentCredential_applicationId_environment_idx" ON "AgentCredential"("applicationId", "environment");

-- CreateIndex
CREATE UNIQUE INDEX "ConformanceRun_reportToken_key" ON "ConformanceRun"("reportToken");

-- CreateIndex
CREATE INDEX "ConformanceRun_applicationId_createdAt_idx" ON "ConformanceRun"("applicationId", "createdAt");

-- CreateIndex
CREATE INDEX "ConformanceRun_status_expiresAt_idx" ON "ConformanceRun"("status", "expiresAt");

-- CreateIndex
CREATE INDEX "TefcaSession_applicationId_expiresAt_idx" ON "TefcaSession"("applicationId", "expiresAt");

-- CreateIndex
CREATE INDEX "RequestLog_applicationId_createdAt_idx" ON "RequestLog"("applicationId", "createdAt");

-- CreateIndex
CREATE INDEX "RequestLog_conformanceRunId_createdAt_idx" ON "RequestLog"("conformanceRunId", "createdAt");

-- CreateIndex
CREATE INDEX "RequestLog_createdAt_idx" ON "RequestLog"("createdAt");

-- AddForeignKey
ALTER TABLE "Application" ADD CONSTRAINT "Application_developerId_fkey" FOREIGN KEY ("developerId") REFERENCES "Developer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_conformanceRunId_fkey" FOREIGN KEY ("conformanceRunId") REFERENCES "ConformanceRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Patient" ADD CONSTRAINT "Patient_syntheticForApplicationId_fkey" FOREIGN KEY ("syntheticForApplicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subject" ADD CONSTRAINT "Subject_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subject" ADD CONSTRAINT "Subject_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Source" ADD CONSTRAINT "Source_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Source" ADD CONSTRAINT "Source_subjectId_fkey" FOREIGN KEY ("subjectId") REFERENCES "Subject"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Source" ADD CONSTRAINT "Source_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConnectSession" ADD CONSTRAINT "ConnectSession_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConnectSession" ADD CONSTRAINT "ConnectSession_subjectId_fkey" FOREIGN KEY ("subjectId") REFERENCES "Subject"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConsentReceipt" ADD CONSTRAINT "ConsentReceipt_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConsentReceipt" ADD CONSTRAINT "ConsentReceipt_subjectId_fkey" FOREIGN KEY ("subjectId") REFERENCES "Subject"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConsentReceipt" ADD CONSTRAINT "ConsentReceipt_connectSessionId_fkey" FOREIGN KEY ("connectSessionId") REFERENCES "ConnectSession"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Record" ADD CONSTRAINT "Record_subjectId_fkey" FOREIGN KEY ("subjectId") REFERENCES "Subject"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RecordChange" ADD CONSTRAINT "RecordChange_subjectId_fkey" FOREIGN KEY ("subjectId") REFERENCES "Subject"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeCounter" ADD CONSTRAINT "ChangeCounter_subjectId_fkey" FOREIGN KEY ("subjectId") REFERENCES "Subject"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IdempotencyRecord" ADD CONSTRAINT "IdempotencyRecord_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentCredential" ADD CONSTRAINT "AgentCredential_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentCredential" ADD CONSTRAINT "AgentCredential_parentKeyId_fkey" FOREIGN KEY ("parentKeyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentCredential" ADD CONSTRAINT "AgentCredential_subjectId_fkey" FOREIGN KEY ("subjectId") REFERENCES "Subject"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConformanceRun" ADD CONSTRAINT "ConformanceRun_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TefcaSession" ADD CONSTRAINT "TefcaSession_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;
