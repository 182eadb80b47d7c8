import { PROVIDERS, type Provider } from "@/lib/sandbox";
import { findEhrClient, isRegisteredRedirectUri, type EhrClient } from "./clients";
import type { OAuthErrorCode } from "./oauth-errors";
import { ehrEndpoints } from "./providers";
import { grantableScopes, hasResourceScope, LAUNCH_PATIENT } from "./scopes";

/** An authorization request that passed every check: what the page shows and what a code is issued for. */
export type AuthorizationRequest = {
  provider: Provider;
  client: EhrClient;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  /** The scopes granted, space-separated, in the order asked. */
  scope: string;
  /** The application the client asks on behalf of (`on_behalf_of`), when it names one. */
  onBehalfOf: string | null;
};

/**
 * The three outcomes of RFC 6749 §4.1.2.1. Until the client and its redirect URI are known good, nothing may be
 * sent to the redirect URI (it could be anyone's), so the patient sees an error page; after that, errors go back to
 * the client at its redirect URI with `error` and the `state` it sent.
 */
export type AuthorizationCheck =
  | { outcome: "valid"; request: AuthorizationRequest }
  | { outcome: "error-page"; status: number; message: string }
  | { outcome: "redirect-error"; redirectUri: string; error: OAuthErrorCode; description: string; state: string | null };

/** PKCE S256 challenge: base64url SHA-256, 43 characters. */
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE_LENGTH = 512;
const MAX_ON_BEHALF_OF_LENGTH = 120;

export function checkAuthorizationRequest(providerId: string, params: URLSearchParams): AuthorizationCheck {
  const provider = PROVIDERS.find((candidate) => candidate.id === providerId);
  if (!provider) return { outcome: "error-page", status: 404, message: `There is no health system called “${providerId}”.` };

  const clientId = params.get("client_id");
  if (!clientId) return { outcome: "error-page", status: 400, message: "The request names no client (client_id is missing)." };
  const client = findEhrClient(clientId);
  if (!client) return { outcome: "error-page", status: 400, message: `The application “${clientId}” is not registered with ${provider.name}.` };

  const redirectUri = params.get("redirect_uri");
  if (!redirectUri) return { outcome: "error-page", status: 400, message: "The request gives no redirect_uri to return to." };
  if (!isRegisteredRedirectUri(redirectUri)) {
    return { outcome: "error-page", status: 400, message: `The redirect_uri is not registered for ${client.name}, so you are not sent there.` };
  }

  const state = params.get("state");
  const fail = (error: OAuthErrorCode, description: string): AuthorizationCheck => ({
    outcome: "redirect-error",
    redirectUri,
    error,
    description,
    state: state || null,
  });
  if (params.get("response_type") !== "code") return fail("unsupported_response_type", "response_type must be code.");
  if (!state) return fail("invalid_request", "state is required.");
  if (state.length > MAX_STATE_LENGTH) return fail("invalid_request", `state is longer than ${MAX_STATE_LENGTH} characters.`);
  const codeChallenge = params.get("code_challenge");
  if (!codeChallenge) return fail("invalid_request", "code_challenge is required (PKCE).");
  if (params.get("code_challenge_method") !== "S256") return fail("invalid_request", "code_challenge_method must be S256.");
  if (!CODE_CHALLENGE.test(codeChallenge)) return fail("invalid_request", "code_challenge is not a base64url SHA-256 digest.");
  const aud = params.get("aud");
  if (aud !== null && aud.replace(/\/$/, "") !== ehrEndpoints(provider.id).fhirBase) {
    return fail("invalid_request", `aud must be this server's FHIR base URL, ${ehrEndpoints(provider.id).fhirBase}.`);
  }
  const scopes = grantableScopes(params.get("scope") ?? "");
  if (!scopes.includes(LAUNCH_PATIENT) || !hasResourceScope(scopes)) {
    return fail("invalid_scope", "scope must include launch/patient and a patient read scope (patient/*.read or patient/{type}.read).");
  }

  const onBehalfOf = params.get("on_behalf_of")?.trim() || null;
  if (onBehalfOf && onBehalfOf.length > MAX_ON_BEHALF_OF_LENGTH) return fail("invalid_request", `on_behalf_of is longer than ${MAX_ON_BEHALF_OF_LENGTH} characters.`);

  return { outcome: "valid", request: { provider, client, redirectUri, state, codeChallenge, scope: scopes.join(" "), onBehalfOf } };
}

/** The client's redirect URI with the response parameters added to whatever query it registered. */
export function redirectWith(redirectUri: string, parameters: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) if (value !== null) url.searchParams.set(name, value);
  return url.toString();
}
