import { MAX_BODY_BYTES } from "@/lib/http";
import { issueAccessToken } from "./access-tokens";
import { redeemAuthorizationCode } from "./authorization-codes";
import { authenticateTokenClient } from "./client-authentication";
import type { EhrClient } from "./clients";
import { OAuthError } from "./oauth-errors";
import { findEhrPatient } from "./patients";
import { ehrProviderOr404 } from "./providers";
import { issueRefreshToken, rotateRefreshToken, type RefreshGrant } from "./refresh-tokens";
import { OFFLINE_ACCESS } from "./scopes";

/** The token response of RFC 6749 §5.1 with SMART's launch context (`patient`). */
export type TokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  patient: string;
  refresh_token?: string;
};

export async function readForm(request: Request): Promise<URLSearchParams> {
  const contentType = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/x-www-form-urlencoded") {
    throw new OAuthError("invalid_request", "The token request must be application/x-www-form-urlencoded.");
  }
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new OAuthError("invalid_request", "The token request is too large.");
  return new URLSearchParams(text);
}

function required(form: URLSearchParams, name: string): string {
  const value = form.get(name);
  if (!value) throw new OAuthError("invalid_request", `${name} is required.`);
  return value;
}

function tokenResponse(grant: RefreshGrant, accessScope: string, refreshToken: string | null): TokenResponse {
  const patient = findEhrPatient(grant.providerId, grant.patientKey);
  // The fixtures changed under a live grant: the patient it names no longer exists here.
  if (!patient) throw new OAuthError("invalid_grant", "The patient of this grant no longer exists.");
  const access = issueAccessToken({ providerId: grant.providerId, patientKey: grant.patientKey, clientId: grant.clientId, scope: accessScope });
  return {
    access_token: access.token,
    token_type: "Bearer",
    expires_in: access.expiresIn,
    scope: accessScope,
    patient: patient.fhirPatientId,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  };
}

/** A refresh token comes with the grant only when the client asked for offline_access, as SMART specifies. */
async function exchangeCode(providerId: string, client: EhrClient, form: URLSearchParams): Promise<TokenResponse> {
  const redeemed = await redeemAuthorizationCode({
    providerId,
    clientId: client.id,
    code: required(form, "code"),
    redirectUri: required(form, "redirect_uri"),
    codeVerifier: required(form, "code_verifier"),
  });
  const grant = { providerId, patientKey: redeemed.patientKey, clientId: client.id, scope: redeemed.scope };
  const offline = redeemed.scope.split(" ").includes(OFFLINE_ACCESS);
  return tokenResponse(grant, grant.scope, offline ? await issueRefreshToken(grant) : null);
}

/**
 * RFC 6749 §6: an optional `scope` may narrow the new access token; the new refresh token keeps the grant's
 * scope, as the RFC requires.
 */
async function refresh(providerId: string, client: EhrClient, form: URLSearchParams): Promise<TokenResponse> {
  const presented = required(form, "refresh_token");
  const asked = (form.get("scope") ?? "").split(" ").filter((scope) => scope !== "");
  const { grant, token } = await rotateRefreshToken(providerId, client.id, presented, (grant) => {
    const granted = new Set(grant.scope.split(" "));
    const beyond = asked.filter((scope) => !granted.has(scope));
    if (beyond.length > 0) throw new OAuthError("invalid_scope", `The grant does not include ${beyond.join(", ")}.`);
  });
  return tokenResponse(grant, asked.length > 0 ? asked.join(" ") : grant.scope, token);
}

/** POST /ehr/{providerId}/token. */
export async function requestEhrToken(providerId: string, request: Request): Promise<Response> {
  ehrProviderOr404(providerId);
  const form = await readForm(request);
  const client = authenticateTokenClient(providerId, request, form);
  const grantType = form.get("grant_type");
  let body: TokenResponse;
  if (grantType === "authorization_code") body = await exchangeCode(providerId, client, form);
  else if (grantType === "refresh_token") body = await refresh(providerId, client, form);
  else if (!grantType) throw new OAuthError("invalid_request", "grant_type is required.");
  else throw new OAuthError("unsupported_grant_type", `grant_type ${grantType} is not supported; use authorization_code or refresh_token.`);
  // RFC 6749 §5.1: token responses are never cached.
  return Response.json(body, { headers: { "Cache-Control": "no-store", Pragma: "no-cache" } });
}
