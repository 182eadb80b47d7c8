import { db } from "@/lib/db";
import { DEFAULT_HTTP_POLICY, type HttpPolicy } from "./http-policy";
import { exchangeRefreshToken } from "./refresh-access-token";
import { withSourceRefreshLock } from "./refresh-lock";
import { openSourceTokens, type SmartTokens } from "./source-tokens";

/** A per-type FHIR resource scope, v1 (`patient/Observation.read`) or v2 (`patient/Observation.rs?category=…`). */
const RESOURCE_SCOPE = /^(?:patient|user|system)\/([A-Za-z]+)\.[a-z]+(?:\?.*)?$/;

/**
 * `granted` without the per-type scopes of resource types outside `types`, or null when it has none to drop. Only
 * scopes are dropped, never rewritten, so the result is a subset of the grant that any server can honour; a
 * wildcard (`patient/*.read`) cannot be narrowed that way and stays.
 */
export function narrowedScope(granted: string, types: readonly string[]): string | null {
  const scopes = granted.split(" ").filter((scope) => scope !== "");
  const kept = scopes.filter((scope) => {
    const type = RESOURCE_SCOPE.exec(scope)?.[1];
    return type === undefined || types.includes(type);
  });
  return kept.length === scopes.length ? null : kept.join(" ");
}

/**
 * Narrows the source's tokens to the resource types the patient shares: the patient signs in before choosing what
 * to share, so a category unticked after sign-in leaves the provider's grant wider than the consent. The refresh
 * grant with the narrower scope (RFC 6749 §6) replaces the stored access token, and the narrowed scope is stored,
 * so later refreshes ask for it again. The import calls it with the shared categories' types before it reads.
 * Tokens whose scope is unknown, or without a refresh token, stay as they are.
 */
export async function narrowSourceScope(sourceId: string, types: readonly string[], policy: HttpPolicy = DEFAULT_HTTP_POLICY): Promise<SmartTokens> {
  return withSourceRefreshLock(sourceId, async () => {
    const row = await db().source.findUniqueOrThrow({ where: { id: sourceId }, include: { provider: true } });
    const current = openSourceTokens(row);
    const scope = narrowedScope(current.scope, types);
    if (scope === null || !current.refreshToken) return current;
    return exchangeRefreshToken(sourceId, row.provider, policy, current, scope);
  });
}
