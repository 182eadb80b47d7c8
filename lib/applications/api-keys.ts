import { createApiKey, findApiKey, listApiKeys, revokeApiKey, type ApiKeySummary } from "@/lib/auth";
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
  return createApiKey({ applicationId: access.application.id, environment, name });
}

/** Revokes a key of the caller's application (members: sandbox keys only). Another application's key id: not found. */
export async function revokeKeyFor(access: ApplicationAccess, keyId: string): Promise<ApiKeySummary> {
  const key = await findApiKey(access.application.id, keyId);
  if (!key) throw new NotFoundError("The API key");
  requirePermission(access, keyPermission(key.environment));
  return (await revokeApiKey(access.application.id, keyId)) ?? key;
}
