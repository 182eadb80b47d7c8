-- CreateEnum
CREATE TYPE "ProductionRequestStatus" AS ENUM ('pending', 'approved', 'refused');

-- CreateTable
CREATE TABLE "ProductionRequest" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "requestedById" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "redirectUrls" TEXT[],
    "contactEmail" TEXT NOT NULL,
    "status" "ProductionRequestStatus" NOT NULL DEFAULT 'pending',
    "decisionReason" TEXT,
    "decidedById" TEXT,
    "decidedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProductionRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OperatorAuditEntry" (
    "id" TEXT NOT NULL,
    "operatorId" TEXT NOT NULL,
    "operatorEmail" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OperatorAuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProductionRequest_applicationId_createdAt_idx" ON "ProductionRequest"("applicationId", "createdAt");

-- CreateIndex
CREATE INDEX "ProductionRequest_status_createdAt_idx" ON "ProductionRequest"("status", "createdAt");

-- CreateIndex
CREATE INDEX "OperatorAuditEntry_createdAt_idx" ON "OperatorAuditEntry"("createdAt");

-- AddForeignKey
ALTER TABLE "ProductionRequest" ADD CONSTRAINT "ProductionRequest_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;
