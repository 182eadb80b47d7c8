import { memberActor, recordAudit } from "@/lib/audit";
import { createApiKey, findApiKey, listApiKeys, revokeApiKey, type ApiKeySummary } from "@/lib/auth";
import { withTransaction } from "@/lib/db";
import { keyPermission, NotFoundError, requirePermission, TeamError, type ApplicationAccess } from "@/lib/team";
import { createApiKeyInputSchema, type CreateApiKeyInput } from "./schemas";

/** The dashboard's key list for the caller's application (no run keys, never hashes). */
export async function listKeysFor(access: ApplicationAccess): Promise<ApiKeySummary[]> {
  requirePermission(access, "application.read");
  return listApiKeys(access.application.id);
}

/**
 * Creates a key for the caller's application: members may create sandbox keys, only owners live ones, and those
 * only once an operator approved production (a live key would answer `production_not_enabled` anyway). The secret
 * is in the answer once and never again.
 */
export async function createKeyFor(access: ApplicationAccess, input: CreateApiKeyInput): Promise<{ id: string; key: string; displayPrefix: string }> {
  const { environment, name } = createApiKeyInputSchema.parse(input);
  requirePermission(access, keyPermission(environment));
  if (environment === "live" && !access.application.productionEnabled) {
    throw new TeamError("invalid_input", "Live keys can be created once an operator approves production; ask for it in Settings.");
  }
  const applicationId = access.application.id;
  return withTransaction("ReadCommitted", async (tx) => {
    const created = await createApiKey({ applicationId, environment, name }, tx);
    await recordAudit(tx, { action: "api_key.create", actor: memberActor(access), applicationId, targetType: "api_key", targetId: created.id, after: { name, environment, displayPrefix: created.displayPrefix } });
    return created;
  });
}

/** Revokes a key of the caller's application (members: sandbox keys only). Another application's key id: not found. */
export async function revokeKeyFor(access: ApplicationAccess, keyId: string): Promise<ApiKeySummary> {
  const key = await findApiKey(access.application.id, keyId);
  if (!key) throw new NotFoundError("The API key");
  requirePermission(access, keyPermission(key.environment));
  const applicationId = access.application.id;
  return withTransaction("ReadCommitted", async (tx) => {
    const now = new Date();
    const revoked = (await revokeApiKey(applicationId, keyId, now, tx)) ?? key;
    // An already revoked key keeps its first revocation, and the trail its one entry.
    if (revoked.revokedAt?.getTime() === now.getTime()) await recordAudit(tx, { action: "api_key.revoke", actor: memberActor(access), applicationId, targetType: "api_key", targetId: keyId, before: { name: key.name, revokedAt: null }, after: { name: key.name, revokedAt: now } });
    return revoked;
  });
}
