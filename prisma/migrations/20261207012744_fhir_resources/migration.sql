-- AlterTable
ALTER TABLE "Record" ADD COLUMN     "resource" JSON,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "FhirContext" (
    "id" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "resourceType" TEXT NOT NULL,
    "resource" JSON NOT NULL,
    "contentHash" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FhirContext_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FhirContext_subjectId_resourceType_id_idx" ON "FhirContext"("subjectId", "resourceType", "id");

-- CreateIndex
CREATE INDEX "FhirContext_subjectId_sourceId_idx" ON "FhirContext"("subjectId", "sourceId");

-- AddForeignKey
ALTER TABLE "FhirContext" ADD CONSTRAINT "FhirContext_subjectId_fkey" FOREIGN KEY ("subjectId") REFERENCES "Subject"("id") ON DELETE CASCADE ON UPDATE CASCADE;
