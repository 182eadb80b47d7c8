import { ehrEndpoints, ehrProviderOr404 } from "./providers";
import { SCOPES_SUPPORTED } from "./scopes";

/**
 * `.well-known/smart-configuration` (SMART App Launch 2.x §"SMART Configuration"): only what this server does.
 * There is no OpenID Connect (no `openid`/`fhirUser`, no `issuer` or JWKS) and no EHR launch.
 */
export function smartConfiguration(providerId: string) {
  ehrProviderOr404(providerId);
  const endpoints = ehrEndpoints(providerId);
  return {
    authorization_endpoint: endpoints.authorize,
    token_endpoint: endpoints.token,
    revocation_endpoint: endpoints.revoke,
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    response_types_supported: ["code"],
    scopes_supported: SCOPES_SUPPORTED,
    code_challenge_methods_supported: ["S256"],
    capabilities: [
      "launch-standalone",
      "client-public",
      "client-confidential-symmetric",
      "context-standalone-patient",
      "permission-patient",
      "permission-offline",
      "permission-v1",
      "permission-v2",
    ],
  };
}
