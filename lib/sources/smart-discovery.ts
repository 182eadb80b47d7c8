import type * as oauth from "oauth4webapi";
import { z } from "zod";
import { checkProviderUrl } from "@/lib/outbound";
import { DEFAULT_HTTP_POLICY, type HttpPolicy } from "./http-policy";
import type { ProviderRow } from "./providers";
import { fetchWithRetries } from "./retrying-fetch";
import { SourceError } from "./source-error";
import { processState } from "@/lib/process-state";

/** The parts of a SMART configuration (SMART App Launch 2.x §2.1) the client relies on. */
export const smartConfigurationSchema = z.object({
  /** The OAuth issuer, when the server names one (SMART 2.x; an authorization response's `iss` must equal it). */
  issuer: z.url().optional(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  /** RFC 7009 token revocation, where the server offers it: the platform revokes a source's refresh token there when consent ends. */
  revocation_endpoint: z.url().optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  capabilities: z.array(z.string()).optional(),
  scopes_supported: z.array(z.string()).optional(),
});

export type SmartServer = {
  /**
   * The authorization server as oauth4webapi takes it. Its issuer is the configuration's `issuer` when there is one
   * (an authorization server in front of the FHIR API, which sends it back as RFC 9207's `iss`), else the FHIR base URL.
   */
  as: oauth.AuthorizationServer;
  fhirBaseUrl: string;
  capabilities: string[];
};

const CACHE_MS = 5 * 60_000;

/**
 * Discovers the provider's OAuth endpoints from `{fhirBaseUrl}/.well-known/smart-configuration`, cached for five
 * minutes. A provider that does not offer PKCE with S256 is refused: the client never authorizes without it.
 */
export async function discoverSmartServer(provider: ProviderRow, policy: HttpPolicy = DEFAULT_HTTP_POLICY): Promise<SmartServer> {
  const fhirBaseUrl = provider.fhirBaseUrl.replace(/\/+$/, "");
  const cache = processState("sources.smart-servers", () => new Map<string, { server: SmartServer; until: number }>());
  const cached = cache.get(fhirBaseUrl);
  if (cached && cached.until > Date.now()) return cached.server;

  const url = `${fhirBaseUrl}/.well-known/smart-configuration`;
  const response = await fetchWithRetries(url, { headers: { Accept: "application/json" } }, policy, {
    describe: `SMART discovery at ${provider.name}`,
    retryUnanswered: true,
    outbound: provider.environment === "live",
  });
  if (!response.ok) throw new SourceError("provider_unavailable", `SMART discovery at ${provider.name} answered ${response.status}.`, { status: response.status });
  let parsed;
  try {
    parsed = smartConfigurationSchema.safeParse(await response.json());
  } catch {
    throw new SourceError("provider_unavailable", `SMART discovery at ${provider.name} did not answer JSON.`);
  }
  if (!parsed.success) throw new SourceError("provider_unavailable", `SMART discovery at ${provider.name} lacks the OAuth endpoints.`);
  const configuration = parsed.data;
  if (!configuration.code_challenge_methods_supported?.includes("S256")) {
    throw new SourceError("provider_unavailable", `${provider.name} does not offer PKCE with S256.`);
  }
  // A live provider's endpoints follow the outbound rules: https to public addresses, unless the deployment names
  // the host in CHARTKEY_PROVIDER_PRIVATE_HOSTS (a self-hosted network). The patient's browser goes to the
  // authorization endpoint, so it is checked here too, not only when the platform connects.
  if (provider.environment === "live") {
    for (const endpoint of [fhirBaseUrl, configuration.authorization_endpoint, configuration.token_endpoint, ...(configuration.revocation_endpoint ? [configuration.revocation_endpoint] : [])]) {
      const checked = checkProviderUrl(endpoint);
      if (!checked.ok) throw new SourceError("provider_unavailable", `${provider.name}'s endpoint ${endpoint} is refused: ${checked.reason}.`);
    }
  }
  const server: SmartServer = {
    as: {
      issuer: configuration.issuer ?? fhirBaseUrl,
      authorization_endpoint: configuration.authorization_endpoint,
      token_endpoint: configuration.token_endpoint,
      revocation_endpoint: configuration.revocation_endpoint,
      code_challenge_methods_supported: configuration.code_challenge_methods_supported,
    },
    fhirBaseUrl,
    capabilities: configuration.capabilities ?? [],
  };
  cache.set(fhirBaseUrl, { server, until: Date.now() + CACHE_MS });
  return server;
}
