import * as ehrRoutes from "@/app/ehr/[[...path]]/route";
import { createHash, randomBytes } from "node:crypto";
import { ehrEndpoints, SANDBOX_CLIENT_ID, sandboxClientSecret } from "@/lib/ehr";
import { routeContext } from "@/test/factories";

/** The synthetic health system most tests use, and its one patient. */
export const PROVIDER = "riverbend-health";
export const PATIENT_KEY = "baseline-adult.primary";
export const FHIR_PATIENT_ID = "baseline-adult-patient";
/** A loopback redirect URI, registered for the sandbox clients on any port (RFC 8252). */
export const REDIRECT_URI = "http://127.0.0.1:4999/callback?from=test";
export const FULL_SCOPE = "launch/patient offline_access patient/*.read";

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** An authorization request's parameters, valid unless overridden (null removes one). */
export function authorizationParameters(overrides: Record<string, string | null> = {}, challenge = pkcePair().challenge): URLSearchParams {
  const parameters: Record<string, string | null> = {
    response_type: "code",
    client_id: SANDBOX_CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    scope: FULL_SCOPE,
    state: "state-123",
    code_challenge: challenge,
    code_challenge_method: "S256",
    aud: ehrEndpoints(PROVIDER).fhirBase,
    ...overrides,
  };
  return new URLSearchParams(Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== null));
}

export function getAuthorize(parameters: URLSearchParams, providerId = PROVIDER): Promise<Response> {
  return ehrRoutes.GET(new Request(`http://localhost/ehr/${providerId}/authorize?${parameters}`), routeContext({ providerId }));
}

/** Posts the page's form as a browser would: the forwarded parameters plus the patient and the decision. */
export function postDecision(parameters: URLSearchParams, decision: "allow" | "deny", patientKey: string | null = PATIENT_KEY, providerId = PROVIDER): Promise<Response> {
  const form = new URLSearchParams(parameters);
  if (patientKey !== null) form.set("patient", patientKey);
  form.set("decision", decision);
  return ehrRoutes.POST(
    new Request(`http://localhost/ehr/${providerId}/authorize`, { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } }),
    routeContext({ providerId }),
  );
}

/** Allows the patient on the page and returns the code from the redirect. */
export async function authorizationCode(options: { challenge: string; scope?: string; clientId?: string; providerId?: string; patientKey?: string }): Promise<string> {
  const parameters = authorizationParameters(
    { scope: options.scope ?? FULL_SCOPE, client_id: options.clientId ?? SANDBOX_CLIENT_ID, aud: null },
    options.challenge,
  );
  const response = await postDecision(parameters, "allow", options.patientKey ?? PATIENT_KEY, options.providerId ?? PROVIDER);
  if (response.status !== 303) throw new Error(`Allow answered ${response.status}: ${await response.text()}`);
  const code = new URL(response.headers.get("location") ?? "").searchParams.get("code");
  if (!code) throw new Error("Allow redirected without a code");
  return code;
}

export function basicAuth(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`;
}

/** The confidential sandbox client's Basic credentials at a provider. */
export function sandboxClientAuth(providerId = PROVIDER): Record<string, string> {
  return { authorization: basicAuth(SANDBOX_CLIENT_ID, sandboxClientSecret(providerId)) };
}

export type TokenCall = { status: number; headers: Headers; body: Record<string, unknown> };

export async function postToken(form: Record<string, string>, headers: Record<string, string> = sandboxClientAuth(), providerId = PROVIDER): Promise<TokenCall> {
  const response = await ehrRoutes.POST(
    new Request(`http://localhost/ehr/${providerId}/token`, {
      method: "POST",
      body: new URLSearchParams(form),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    }),
    routeContext({ providerId }),
  );
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

/** A code exchanged for tokens by the confidential client: the happy path most FHIR tests start from. */
export async function tokensFor(options: { scope?: string; providerId?: string; patientKey?: string } = {}): Promise<TokenCall["body"]> {
  const providerId = options.providerId ?? PROVIDER;
  const { verifier, challenge } = pkcePair();
  const code = await authorizationCode({ challenge, scope: options.scope, providerId, patientKey: options.patientKey });
  const call = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier }, sandboxClientAuth(providerId), providerId);
  if (call.status !== 200) throw new Error(`token exchange answered ${call.status}: ${JSON.stringify(call.body)}`);
  return call.body;
}
