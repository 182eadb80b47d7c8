-- Key change notifications. Each app instance caches the API keys it has authenticated (lib/auth/key-cache.ts); a
-- change that key authentication depends on notifies channel `chartkey_key_changes` with the changed row's id, so
-- every instance drops what it cached, whichever client made the change. Writing "lastUsedAt" is not such a change.
CREATE FUNCTION "chartkey_notify_key_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('chartkey_key_changes', OLD."id");
  RETURN NULL;
END
$$;

CREATE TRIGGER "ApiKey_key_change_update" AFTER UPDATE ON "ApiKey" FOR EACH ROW
  WHEN (OLD."revokedAt" IS DISTINCT FROM NEW."revokedAt"
     OR OLD."environment" IS DISTINCT FROM NEW."environment"
     OR OLD."secretHash" IS DISTINCT FROM NEW."secretHash"
     OR OLD."applicationId" IS DISTINCT FROM NEW."applicationId"
     OR OLD."conformanceRunId" IS DISTINCT FROM NEW."conformanceRunId")
  EXECUTE FUNCTION "chartkey_notify_key_change"();

CREATE TRIGGER "ApiKey_key_change_delete" AFTER DELETE ON "ApiKey" FOR EACH ROW
  EXECUTE FUNCTION "chartkey_notify_key_change"();

CREATE TRIGGER "Application_key_change_update" AFTER UPDATE ON "Application" FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status"
     OR OLD."productionEnabled" IS DISTINCT FROM NEW."productionEnabled"
     OR OLD."categoryAllowlist" IS DISTINCT FROM NEW."categoryAllowlist"
     OR OLD."name" IS DISTINCT FROM NEW."name"
     OR OLD."syncMode" IS DISTINCT FROM NEW."syncMode")
  EXECUTE FUNCTION "chartkey_notify_key_change"();

CREATE TRIGGER "Application_key_change_delete" AFTER DELETE ON "Application" FOR EACH ROW
  EXECUTE FUNCTION "chartkey_notify_key_change"();
