import { db } from "@/lib/db";
import type { Category } from "@/lib/records";
import { DEFAULT_HTTP_POLICY, type HttpPolicy } from "./http-policy";
import { exchangeRefreshToken } from "./refresh-access-token";
import { withSourceRefreshLock } from "./refresh-lock";
import { resourceScopesFor } from "./smart-scopes";
import { openSourceTokens, type SmartTokens } from "./source-tokens";

/** A per-type FHIR resource scope, v1 (`patient/Observation.read`) or v2 (`patient/Observation.rs?category=…`). */
const RESOURCE_SCOPE = /^(?:patient|user|system)\/([A-Za-z]+)\.[a-z]+(?:\?(.*))?$/;

/**
 * `granted` without the resource scopes an import does not need, or null when it has none to drop: the per-type
 * scopes of types outside `types`, and, given the shared `categories`, the v2 scopes narrowed by a `category` none
 * of them reads (`patient/Observation.rs?category=…|vital-signs` once vital signs are unticked). Only scopes are dropped, never rewritten, so the result is a subset of the grant that any server can
 * honour; a wildcard (`patient/*.read`) cannot be narrowed that way and stays.
 */
export function narrowedScope(granted: string, types: readonly string[], categories?: readonly Category[]): string | null {
  const needed = categories === undefined ? null : resourceScopesFor(categories, "v2");
  const scopes = granted.split(" ").filter((scope) => scope !== "");
  const kept = scopes.filter((scope) => {
    const match = RESOURCE_SCOPE.exec(scope);
    if (!match) return true;
    const [, type = "", query] = match;
    if (!types.includes(type)) return false;
    const category = query === undefined ? null : new URLSearchParams(query).get("category");
    if (category === null || needed === null) return true;
    // A category-narrowed grant stays when the categories ask for that category of the type.
    return needed.some((scope) => scope.startsWith(`patient/${type}.`) && scope.endsWith(`?category=${category}`));
  });
  return kept.length === scopes.length ? null : kept.join(" ");
}

/**
 * Narrows the source's tokens to the resource types (and, given them, the categories) the patient shares: the patient signs in before choosing what
 * to share, so a category unticked after sign-in leaves the provider's grant wider than the consent. The refresh
 * grant with the narrower scope (RFC 6749 §6) replaces the stored access token, and the narrowed scope is stored,
 * so later refreshes ask for it again. The import calls it with the shared categories' types before it reads.
 * Tokens whose scope is unknown, or without a refresh token, stay as they are.
 */
export async function narrowSourceScope(
  sourceId: string,
  types: readonly string[],
  policy: HttpPolicy = DEFAULT_HTTP_POLICY,
  categories?: readonly Category[],
): Promise<SmartTokens> {
  return withSourceRefreshLock(sourceId, async () => {
    const row = await db().source.findUniqueOrThrow({ where: { id: sourceId }, include: { provider: true } });
    const current = openSourceTokens(row);
    const scope = narrowedScope(current.scope, types, categories);
    if (scope === null || !current.refreshToken) return current;
    return exchangeRefreshToken(sourceId, row.provider, policy, current, scope);
  });
}
