-- CreateEnum
CREATE TYPE "MemberRole" AS ENUM ('owner', 'member');

-- AlterTable
ALTER TABLE "Application" ADD COLUMN     "previousSigningSecretEncrypted" TEXT,
ADD COLUMN     "previousSigningSecretExpiresAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN     "errorCode" TEXT;

-- CreateTable
CREATE TABLE "ApplicationMember" (
    "applicationId" TEXT NOT NULL,
    "developerId" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApplicationMember_pkey" PRIMARY KEY ("applicationId","developerId")
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "invitedById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "acceptedAt" TIMESTAMP(3),
    "acceptedById" TEXT,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ApplicationMember_developerId_idx" ON "ApplicationMember"("developerId");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");

-- CreateIndex
CREATE INDEX "Invitation_applicationId_createdAt_idx" ON "Invitation"("applicationId", "createdAt");

-- AddForeignKey
ALTER TABLE "ApplicationMember" ADD CONSTRAINT "ApplicationMember_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApplicationMember" ADD CONSTRAINT "ApplicationMember_developerId_fkey" FOREIGN KEY ("developerId") REFERENCES "Developer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_invitedById_fkey" FOREIGN KEY ("invitedById") REFERENCES "Developer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: every existing application's creator becomes its owner.
INSERT INTO "ApplicationMember" ("applicationId", "developerId", "role", "createdAt")
SELECT "id", "developerId", 'owner', "createdAt" FROM "Application"
ON CONFLICT DO NOTHING;
