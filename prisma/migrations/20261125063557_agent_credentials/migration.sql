-- AlterTable
ALTER TABLE "AgentCredential" ADD COLUMN     "receiptId" TEXT NOT NULL;

-- CreateIndex
CREATE INDEX "AgentCredential_subjectId_expiresAt_idx" ON "AgentCredential"("subjectId", "expiresAt");

-- CreateIndex
CREATE INDEX "AgentCredential_receiptId_idx" ON "AgentCredential"("receiptId");

-- CreateIndex
CREATE INDEX "AgentCredential_parentKeyId_idx" ON "AgentCredential"("parentKeyId");

-- AddForeignKey
ALTER TABLE "AgentCredential" ADD CONSTRAINT "AgentCredential_receiptId_fkey" FOREIGN KEY ("receiptId") REFERENCES "ConsentReceipt"("id") ON DELETE CASCADE ON UPDATE CASCADE;
