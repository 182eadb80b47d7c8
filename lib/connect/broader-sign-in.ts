import type { Category } from "@/lib/records";
import { DEFAULT_HTTP_POLICY, discoverSmartServer, findProvider, grantBroaderThan, scopeForCategories, scopeSyntaxFor } from "@/lib/sources";

/** One quick try: the page waits on it, and a provider that does not answer now gets no notice (its sign-in will fail). */
const NOTICE_POLICY = { ...DEFAULT_HTTP_POLICY, maxAttempts: 1, timeoutMs: 3_000 };

/**
 * The health systems among `providerIds` whose sign-in will ask the patient for more than `categories`: those whose
 * SMART configuration does not advertise `permission-v2`, so the request names whole types (SMART v1), when the
 * categories need only part of a type (lab results but not vital signs). The sign-in page tells the patient before
 * they go there. Discovery is cached (lib/sources), so the sign-in that follows does not ask again.
 */
export async function providersAskingBroadly(providerIds: readonly string[], categories: readonly Category[]): Promise<Set<string>> {
  if (!grantBroaderThan(scopeForCategories(categories, "v1"), categories)) return new Set();
  const broad = await Promise.all(
    providerIds.map(async (providerId) => {
      try {
        const server = await discoverSmartServer(await findProvider(providerId), NOTICE_POLICY);
        return scopeSyntaxFor(server.capabilities) === "v1" ? providerId : null;
      } catch {
        return null;
      }
    }),
  );
  return new Set(broad.filter((providerId): providerId is string => providerId !== null));
}
