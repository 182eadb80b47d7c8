-- AlterTable
ALTER TABLE "ConnectSession" ADD COLUMN     "earlierConnectTokenHashes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "ConsentReceipt" ADD COLUMN     "earlierPatientTokenHashes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "ConnectSession_earlierConnectTokenHashes_idx" ON "ConnectSession" USING GIN ("earlierConnectTokenHashes");

-- CreateIndex
CREATE INDEX "ConsentReceipt_earlierPatientTokenHashes_idx" ON "ConsentReceipt" USING GIN ("earlierPatientTokenHashes");
