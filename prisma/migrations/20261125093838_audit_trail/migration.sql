-- The operator audit log becomes the deployment's one audit trail (lib/audit).
-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "actorLabel" TEXT,
    "address" TEXT NOT NULL,
    "applicationId" TEXT,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEntry_createdAt_id_idx" ON "AuditEntry"("createdAt", "id");

-- CreateIndex
CREATE INDEX "AuditEntry_applicationId_createdAt_id_idx" ON "AuditEntry"("applicationId", "createdAt", "id");

-- The operator entries recorded so far move over unchanged: their detail becomes the entry's `after`.
INSERT INTO "AuditEntry" ("id", "createdAt", "action", "actorType", "actorId", "actorLabel", "address", "applicationId", "targetType", "targetId", "after")
SELECT "id", "createdAt", "action", 'operator', "operatorId", "operatorEmail", 'unknown',
       CASE WHEN "targetType" = 'application' THEN "targetId" END, "targetType", "targetId", "detail"
FROM "OperatorAuditEntry";

-- DropTable
DROP TABLE "OperatorAuditEntry";

-- Append-only, enforced by the database itself: no role the application connects as can edit or remove history.
CREATE FUNCTION "audit_entry_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit trail is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "AuditEntry_append_only_row" BEFORE UPDATE OR DELETE ON "AuditEntry"
  FOR EACH ROW EXECUTE FUNCTION "audit_entry_append_only"();

CREATE TRIGGER "AuditEntry_append_only_truncate" BEFORE TRUNCATE ON "AuditEntry"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_entry_append_only"();
