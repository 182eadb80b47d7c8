import * as oauth from "oauth4webapi";
import type { HttpPolicy } from "./http-policy";
import { plainHttpAllowed } from "./plain-http";
import { providerClientSecret, type ProviderRow } from "./providers";
import { fetchWithRetries } from "./retrying-fetch";

/** The platform as the provider's OAuth client, and how it authenticates at the token endpoint. */
export function oauthClient(provider: ProviderRow): { client: oauth.Client; clientAuth: oauth.ClientAuth } {
  const secret = providerClientSecret(provider);
  return { client: { client_id: provider.clientId }, clientAuth: secret ? oauth.ClientSecretBasic(secret) : oauth.None() };
}

/**
 * Options for oauth4webapi's token requests: the policy's timeout and its retries of 429/5xx answers (never of
 * unanswered requests: the code or refresh token may have been spent). oauth4webapi refuses plain http unless told;
 * it is told only where `plainHttpAllowed` says so.
 */
export function tokenRequestOptions(provider: ProviderRow, policy: HttpPolicy): oauth.TokenEndpointRequestOptions {
  return {
    [oauth.allowInsecureRequests]: plainHttpAllowed(provider, provider.tokenUrl),
    [oauth.customFetch]: (url, init) =>
      fetchWithRetries(url, { method: init.method, headers: init.headers, body: init.body, redirect: init.redirect }, policy, {
        describe: `The token request to ${provider.id}`,
        retryUnanswered: false,
      }),
  };
}
