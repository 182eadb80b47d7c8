import * as oauth from "oauth4webapi";
import type { HttpPolicy } from "./http-policy";
import { providerClientSecret, type ProviderRow } from "./providers";
import { fetchWithRetries } from "./retrying-fetch";

/** The platform as the provider's OAuth client, and how it authenticates at the token endpoint. */
export function oauthClient(provider: ProviderRow): { client: oauth.Client; clientAuth: oauth.ClientAuth } {
  const secret = providerClientSecret(provider);
  return { client: { client_id: provider.clientId }, clientAuth: secret ? oauth.ClientSecretBasic(secret) : oauth.None() };
}

/**
 * Options for oauth4webapi's token requests: the policy's timeout and its retries of 429/5xx answers (never of
 * unanswered requests: the code or refresh token may have been spent). The scheme is judged by the platform's own
 * rules, not oauth4webapi's https-only default: sandbox providers run on this deployment's own origin (plain http in
 * development), and a live provider's requests go through lib/outbound, which requires https unless the deployment
 * names the host in CHARTKEY_PROVIDER_PRIVATE_HOSTS.
 */
export function tokenRequestOptions(provider: ProviderRow, policy: HttpPolicy): oauth.TokenEndpointRequestOptions {
  return {
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: (url, init) =>
      fetchWithRetries(url, { method: init.method, headers: init.headers, body: init.body, redirect: init.redirect }, policy, {
        describe: `The token request to ${provider.name}`,
        retryUnanswered: false,
        outbound: provider.environment === "live",
      }),
  };
}
