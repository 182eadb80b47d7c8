import * as ehrRoutes from "@/app/ehr/[[...path]]/route";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ehrEndpoints, SANDBOX_CLIENT_ID, SANDBOX_PUBLIC_CLIENT_ID, sandboxClientSecret } from "@/lib/ehr";
import {
  authorizationCode,
  authorizationParameters,
  basicAuth,
  FHIR_PATIENT_ID,
  FULL_SCOPE,
  getAuthorize,
  PATIENT_KEY,
  pkcePair,
  postDecision,
  postToken,
  PROVIDER,
  REDIRECT_URI,
  sandboxClientAuth,
  tokensFor,
} from "@/test/ehr";
import { routeContext } from "@/test/factories";

function redirectParameters(response: Response): URLSearchParams {
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get("location") ?? "");
  expect(`${location.origin}${location.pathname}`).toBe("http://127.0.0.1:4999/callback");
  // The query the client registered is kept.
  expect(location.searchParams.get("from")).toBe("test");
  return location.searchParams;
}

async function expectErrorPage(response: Response, status: number, text: RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get("location")).toBeNull();
  expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(await response.text()).toMatch(text);
}

describe("SMART configuration", () => {
  it("is served under the FHIR base and at the health system's root, naming only what the server does", async () => {
    for (const base of [`http://localhost/ehr/${PROVIDER}/fhir`, `http://localhost/ehr/${PROVIDER}`]) {
      const response = await ehrRoutes.GET(new Request(`${base}/.well-known/smart-configuration`), routeContext({ providerId: PROVIDER }));
      expect(response.status).toBe(200);
      const configuration = await response.json();
      expect(configuration).toMatchObject({
        authorization_endpoint: ehrEndpoints(PROVIDER).authorize,
        token_endpoint: ehrEndpoints(PROVIDER).token,
        code_challenge_methods_supported: ["S256"],
        grant_types_supported: ["authorization_code", "refresh_token"],
      });
      expect(configuration.capabilities).toEqual(expect.arrayContaining(["launch-standalone", "client-public", "client-confidential-symmetric", "permission-patient"]));
      expect(configuration.scopes_supported).toEqual(expect.arrayContaining(["launch/patient", "patient/*.read", "offline_access"]));
      expect(configuration.scopes_supported).not.toContain("openid");
    }
  });

  it("an unknown health system is 404 in OAuth's error format", async () => {
    const response = await ehrRoutes.GET(new Request("http://localhost/ehr/nowhere/fhir/.well-known/smart-configuration"), routeContext({ providerId: "nowhere" }));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "invalid_request", error_description: expect.stringContaining("nowhere") });
  });
});

describe("the authorization page", () => {
  it("a health system with one patient has that patient chosen already", async () => {
    const provider = "willowbrook-childrens";
    const response = await getAuthorize(authorizationParameters({ aud: ehrEndpoints(provider).fhirBase }), provider);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html.match(/type="radio"/g)).toHaveLength(1);
    expect(html).toContain('value="pediatric-child.primary" required checked');
  });

  it("shows the provider, what is asked, and the provider's patients as labelled radio buttons, under its own CSP", async () => {
    const response = await getAuthorize(authorizationParameters());
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1>Sign in to Riverbend Health</h1>");
    expect(html).toContain("Chartkey (sandbox)");
    expect(html).toMatch(/<label class="patient" for="patient-0">\s*<input type="radio" id="patient-0" name="patient" value="baseline-adult.primary" required/);
    expect(html).toContain("Elena Marisol Vargas</span><span class=\"detail\" id=\"patient-0-detail\">Born June 14, 1978");
    expect(html).toContain('<html lang="en">');
    // Riverbend Health holds two patients (baseline-adult's and long-history's): the patient chooses, nothing is preselected.
    expect(html).toContain('value="long-history.primary" required');
    expect(html).not.toMatch(/required checked/);
    expect(html).toContain('value="allow">Allow</button>');
    expect(html).toContain('value="deny" formnovalidate>Deny</button>');
    expect(html).not.toMatch(/<script|https:\/\/fonts/);
    const policy = response.headers.get("content-security-policy") ?? "";
    const nonce = /style-src 'nonce-([^']+)'/.exec(policy)?.[1];
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(policy).toContain("form-action 'self' http://127.0.0.1:4999");
    expect(policy).toContain("default-src 'none'");
  });

  it("names the application asked on behalf of, escaped, and refuses an overlong name", async () => {
    const named = await getAuthorize(authorizationParameters({ on_behalf_of: "Harbor <Coach>", scope: "launch/patient patient/Immunization.read" }));
    const html = await named.text();
    expect(html).toContain("<strong>Harbor &lt;Coach&gt;</strong>, through Chartkey (sandbox), is asking to:");
    expect(html).toContain("Read these parts of your record: immunizations");
    expect(html).toContain('name="on_behalf_of" value="Harbor &lt;Coach&gt;"');
    const overlong = await getAuthorize(authorizationParameters({ on_behalf_of: "x".repeat(121) }));
    expect(overlong.status).toBe(303);
    expect(new URL(overlong.headers.get("location") ?? "").searchParams.get("error")).toBe("invalid_request");
  });

  it("speaks the patient's language: ui_locales first, then Accept-Language, with links to the other language", async () => {
    const spanish = await getAuthorize(authorizationParameters({ ui_locales: "es-MX", on_behalf_of: "Harbor Coach", scope: "launch/patient patient/Observation.read" }));
    const html = await spanish.text();
    expect(spanish.headers.get("content-language")).toBe("es");
    expect(html).toContain('<html lang="es">');
    expect(html).toContain("<h1>Inicie sesión en Riverbend Health</h1>");
    expect(html).toContain("<strong>Harbor Coach</strong>, a través de Chartkey (sandbox), pide:");
    expect(html).toContain("Leer estas partes de su expediente: resultados de laboratorio y signos vitales");
    expect(html).toContain("Nació el 14 de junio de 1978");
    expect(html).toContain('value="allow">Permitir</button>');
    expect(html).toContain('<input type="hidden" name="ui_locales" value="es-MX">');
    expect(html).toMatch(/<a lang="en" hreflang="en" href="\/ehr\/riverbend-health\/authorize\?[^"]*ui_locales=en[^"]*">English<\/a>/);

    const request = new Request(`http://localhost/ehr/${PROVIDER}/authorize?${authorizationParameters()}`, { headers: { "accept-language": "es-ES,es;q=0.9,en;q=0.5" } });
    const { GET } = await import("@/app/ehr/[[...path]]/route");
    const negotiated = await GET(request, routeContext({ providerId: PROVIDER }));
    expect(await negotiated.text()).toContain("Elija un paciente");
    const english = await getAuthorize(authorizationParameters({ ui_locales: "fr en" }));
    expect(await english.text()).toContain("<legend>Choose a patient</legend>");
  });

  it("reuses the nonce the platform's server put in the request's policy", async () => {
    const request = new Request(`http://localhost/ehr/${PROVIDER}/authorize?${authorizationParameters()}`, {
      headers: { "content-security-policy": "default-src 'self'; style-src 'self' 'nonce-c2VydmVyLW5vbmNl'" },
    });
    const { GET } = await import("@/app/ehr/[[...path]]/route");
    const html = await (await GET(request, routeContext({ providerId: PROVIDER }))).text();
    expect(html).toContain('<style nonce="c2VydmVyLW5vbmNl">');
  });

  it("never redirects for an unknown provider, a missing or unknown client, or an unregistered redirect_uri", async () => {
    await expectErrorPage(await getAuthorize(authorizationParameters(), "nowhere"), 404, /no health system called/);
    await expectErrorPage(await getAuthorize(authorizationParameters({ client_id: null })), 400, /client_id is missing/);
    await expectErrorPage(await getAuthorize(authorizationParameters({ client_id: "someone-else" })), 400, /not registered with Riverbend Health/);
    await expectErrorPage(await getAuthorize(authorizationParameters({ redirect_uri: null })), 400, /no redirect_uri/);
    for (const redirect of ["https://evil.example/callback", "http://192.168.1.5:3000/callback", "http://127.0.0.1:4999/cb#fragment", "not a url"]) {
      await expectErrorPage(await getAuthorize(authorizationParameters({ redirect_uri: redirect })), 400, /not registered/);
    }
  });

  it("redirects the other errors to the client with error and state (RFC 6749 §4.1.2.1)", async () => {
    const cases: [Record<string, string | null>, string, RegExp][] = [
      [{ response_type: "token" }, "unsupported_response_type", /response_type/],
      [{ response_type: null }, "unsupported_response_type", /response_type/],
      [{ code_challenge: null }, "invalid_request", /code_challenge is required/],
      [{ code_challenge_method: "plain" }, "invalid_request", /S256/],
      [{ code_challenge_method: null }, "invalid_request", /S256/],
      [{ code_challenge: "too-short" }, "invalid_request", /code_challenge/],
      [{ scope: "patient/*.read" }, "invalid_scope", /launch\/patient/],
      [{ scope: "launch/patient offline_access" }, "invalid_scope", /patient read scope/],
      [{ scope: "launch/patient user/*.read patient/*.write" }, "invalid_scope", /patient read scope/],
      [{ aud: "https://other.example/fhir" }, "invalid_request", /aud/],
    ];
    for (const [overrides, error, description] of cases) {
      const parameters = redirectParameters(await getAuthorize(authorizationParameters(overrides)));
      expect(parameters.get("error"), JSON.stringify(overrides)).toBe(error);
      expect(parameters.get("error_description")).toMatch(description);
      expect(parameters.get("state")).toBe("state-123");
      expect(parameters.get("code")).toBeNull();
    }
  });

  it("a missing state is an error too, returned without one", async () => {
    const parameters = redirectParameters(await getAuthorize(authorizationParameters({ state: null })));
    expect(parameters.get("error")).toBe("invalid_request");
    expect(parameters.get("error_description")).toMatch(/state is required/);
    expect(parameters.has("state")).toBe(false);
  });

  it("Deny returns access_denied with the state; no code is issued", async () => {
    const parameters = redirectParameters(await postDecision(authorizationParameters(), "deny", null));
    expect(Object.fromEntries(parameters)).toMatchObject({ error: "access_denied", state: "state-123" });
    expect(await db().ehrAuthorizationCode.count()).toBe(0);
  });

  it("Allow issues a single-use code for the chosen patient, stored only as its hash, valid 60 seconds", async () => {
    const { challenge } = pkcePair();
    const before = Date.now();
    const parameters = redirectParameters(await postDecision(authorizationParameters({}, challenge), "allow"));
    expect(parameters.get("state")).toBe("state-123");
    const code = parameters.get("code") ?? "";
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await db().ehrAuthorizationCode.findUniqueOrThrow({ where: { codeHash: createHash("sha256").update(code).digest("base64url") } });
    expect(row).toMatchObject({ providerId: PROVIDER, patientKey: PATIENT_KEY, clientId: SANDBOX_CLIENT_ID, redirectUri: REDIRECT_URI, codeChallenge: challenge, scope: FULL_SCOPE, usedAt: null });
    expect(row.expiresAt.getTime() - before).toBeGreaterThanOrEqual(59_000);
    expect(row.expiresAt.getTime() - before).toBeLessThanOrEqual(61_000);
  });

  it("grants only the scopes it serves, in the order asked", async () => {
    const { challenge, verifier } = pkcePair();
    const code = await authorizationCode({ challenge, scope: "openid fhirUser launch/patient patient/Observation.read patient/Condition.rs user/*.read launch/patient" });
    const call = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(call.body.scope).toBe("launch/patient patient/Observation.read patient/Condition.rs");
  });

  it("Allow without a patient, or with another provider's patient, shows the page again asking for one", async () => {
    for (const patient of [null, "multi-source-overlap.primary"]) {
      const response = await postDecision(authorizationParameters(), "allow", patient);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('role="alert" id="problem">Choose a patient');
    }
  });

  it("the form is checked again: a redirect_uri swapped into it is refused without a redirect", async () => {
    await expectErrorPage(await postDecision(authorizationParameters({ redirect_uri: "https://evil.example/cb" }), "allow"), 400, /not registered/);
  });
});

describe("the token endpoint", () => {
  it("exchanges a code for a Bearer token, the patient and a refresh token, never cached", async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorizationCode({ challenge });
    const call = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(call.status).toBe(200);
    expect(call.body).toEqual({
      access_token: expect.stringMatching(/^ehr1\./),
      token_type: "Bearer",
      expires_in: 300,
      scope: FULL_SCOPE,
      patient: FHIR_PATIENT_ID,
      refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(call.headers.get("cache-control")).toBe("no-store");
    expect(call.headers.get("pragma")).toBe("no-cache");
    const stored = await db().ehrRefreshToken.findMany();
    expect(stored.map((row) => row.tokenHash)).toEqual([createHash("sha256").update(String(call.body.refresh_token)).digest("base64url")]);
  });

  it("issues no refresh token without offline_access", async () => {
    const body = await tokensFor({ scope: "launch/patient patient/*.read" });
    expect(body.refresh_token).toBeUndefined();
    expect(body.scope).toBe("launch/patient patient/*.read");
  });

  it("a code works once: the second exchange is invalid_grant", async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorizationCode({ challenge });
    const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    expect((await postToken(form)).status).toBe(200);
    expect(await postToken(form)).toMatchObject({ status: 400, body: { error: "invalid_grant", error_description: expect.stringContaining("already used") } });
  });

  it("a wrong PKCE verifier is invalid_grant, and spends the code", async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorizationCode({ challenge });
    const wrong = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: pkcePair().verifier });
    expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant", error_description: expect.stringContaining("PKCE") } });
    const right = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(right.body.error).toBe("invalid_grant");
  });

  it("a redirect_uri other than the code's is invalid_grant", async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorizationCode({ challenge });
    const call = await postToken({ grant_type: "authorization_code", code, redirect_uri: "http://127.0.0.1:4999/callback", code_verifier: verifier });
    expect(call).toMatchObject({ status: 400, body: { error: "invalid_grant", error_description: expect.stringContaining("redirect_uri") } });
  });

  it("an expired code is invalid_grant", async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorizationCode({ challenge });
    await db().ehrAuthorizationCode.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    const call = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(call).toMatchObject({ status: 400, body: { error: "invalid_grant", error_description: expect.stringContaining("expired") } });
  });

  it("a code is good only at the health system that issued it, for the client it was issued to", async () => {
    const first = pkcePair();
    const elsewhere = await postToken(
      { grant_type: "authorization_code", code: await authorizationCode({ challenge: first.challenge }), redirect_uri: REDIRECT_URI, code_verifier: first.verifier },
      sandboxClientAuth("lakeshore-health"),
      "lakeshore-health",
    );
    expect(elsewhere).toMatchObject({ status: 400, body: { error: "invalid_grant", error_description: expect.stringContaining("not issued by this server") } });

    const second = pkcePair();
    const publicCode = await authorizationCode({ challenge: second.challenge, clientId: SANDBOX_PUBLIC_CLIENT_ID });
    const otherClient = await postToken({ grant_type: "authorization_code", code: publicCode, redirect_uri: REDIRECT_URI, code_verifier: second.verifier });
    expect(otherClient).toMatchObject({ status: 400, body: { error: "invalid_grant", error_description: expect.stringContaining("another client") } });
  });

  it("client authentication: Basic or client_secret_post for the confidential client, nothing but client_id for the public one", async () => {
    const exchange = async (clientId: string, headers: Record<string, string>, extra: Record<string, string> = {}) => {
      const { verifier, challenge } = pkcePair();
      const code = await authorizationCode({ challenge, clientId });
      return postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier, ...extra }, headers);
    };
    expect((await exchange(SANDBOX_CLIENT_ID, {}, { client_id: SANDBOX_CLIENT_ID, client_secret: sandboxClientSecret(PROVIDER) })).status).toBe(200);
    expect((await exchange(SANDBOX_PUBLIC_CLIENT_ID, {}, { client_id: SANDBOX_PUBLIC_CLIENT_ID })).status).toBe(200);

    const unknown = await postToken({ grant_type: "authorization_code", code: "x" }, { authorization: basicAuth("someone-else", "secret") });
    expect(unknown).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(unknown.headers.get("www-authenticate")).toBe('Basic realm="token"');

    const wrongSecret = await postToken({ grant_type: "authorization_code", code: "x" }, { authorization: basicAuth(SANDBOX_CLIENT_ID, "wrong") });
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: "invalid_client", error_description: "The client secret is wrong." } });
    // Each provider issues its own secret.
    expect((await postToken({ grant_type: "authorization_code", code: "x" }, sandboxClientAuth("lakeshore-health"))).status).toBe(401);
    const noSecret = await postToken({ grant_type: "authorization_code", code: "x", client_id: SANDBOX_CLIENT_ID }, {});
    expect(noSecret).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(noSecret.headers.get("www-authenticate")).toBeNull();
    expect(await postToken({ grant_type: "authorization_code", code: "x" }, {})).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    const publicWithSecret = await postToken({ grant_type: "authorization_code", code: "x", client_id: SANDBOX_PUBLIC_CLIENT_ID, client_secret: "s" }, {});
    expect(publicWithSecret).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    const both = await postToken({ grant_type: "authorization_code", code: "x", client_secret: sandboxClientSecret(PROVIDER) });
    expect(both).toMatchObject({ status: 400, body: { error: "invalid_request" } });
  });

  it("malformed requests: grant_type missing or unsupported, parameters missing, not a form", async () => {
    expect(await postToken({})).toMatchObject({ status: 400, body: { error: "invalid_request", error_description: "grant_type is required." } });
    expect(await postToken({ grant_type: "password" })).toMatchObject({ status: 400, body: { error: "unsupported_grant_type" } });
    for (const missing of ["code", "redirect_uri", "code_verifier"]) {
      const form: Record<string, string> = { grant_type: "authorization_code", code: "c", redirect_uri: REDIRECT_URI, code_verifier: pkcePair().verifier };
      delete form[missing];
      expect(await postToken(form)).toMatchObject({ status: 400, body: { error: "invalid_request", error_description: `${missing} is required.` } });
    }
    const json = await ehrRoutes.POST(
      new Request(`http://localhost/ehr/${PROVIDER}/token`, { method: "POST", body: JSON.stringify({ grant_type: "authorization_code" }), headers: { "content-type": "application/json", ...sandboxClientAuth() } }),
      routeContext({ providerId: PROVIDER }),
    );
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: "invalid_request", error_description: expect.stringContaining("x-www-form-urlencoded") });
  });

  it("GET on the token endpoint is refused in OAuth's format, naming POST", async () => {
    const response = await ehrRoutes.GET(new Request(`http://localhost/ehr/${PROVIDER}/token`), routeContext({ providerId: PROVIDER }));
    expect(response.status).toBe(404);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.json()).toMatchObject({ error: "invalid_request" });
  });
});

describe("refresh tokens", () => {
  it("rotate: each refresh returns a new refresh token, and the one used is refused afterwards", async () => {
    const first = await tokensFor();
    const refreshed = await postToken({ grant_type: "refresh_token", refresh_token: String(first.refresh_token) });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ token_type: "Bearer", scope: FULL_SCOPE, patient: FHIR_PATIENT_ID, expires_in: 300 });
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    expect(refreshed.body.access_token).not.toBe(first.access_token);

    const reused = await postToken({ grant_type: "refresh_token", refresh_token: String(first.refresh_token) });
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const again = await postToken({ grant_type: "refresh_token", refresh_token: String(refreshed.body.refresh_token) });
    expect(again.status).toBe(200);
  });

  it("may narrow the access token's scope; a scope beyond the grant is invalid_scope and leaves the refresh token usable", async () => {
    const first = await tokensFor();
    const beyond = await postToken({ grant_type: "refresh_token", refresh_token: String(first.refresh_token), scope: "patient/*.write" });
    expect(beyond).toMatchObject({ status: 400, body: { error: "invalid_scope" } });
    const narrowed = await postToken({ grant_type: "refresh_token", refresh_token: String(first.refresh_token), scope: "launch/patient patient/*.read" });
    expect(narrowed).toMatchObject({ status: 200, body: { scope: "launch/patient patient/*.read" } });
    // The new refresh token keeps the whole grant (RFC 6749 §6).
    const full = await postToken({ grant_type: "refresh_token", refresh_token: String(narrowed.body.refresh_token) });
    expect(full.body.scope).toBe(FULL_SCOPE);
  });

  it("is good only for the client and health system it was issued to", async () => {
    const first = await tokensFor();
    const publicClient = await postToken({ grant_type: "refresh_token", refresh_token: String(first.refresh_token), client_id: SANDBOX_PUBLIC_CLIENT_ID }, {});
    expect(publicClient).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const elsewhere = await postToken({ grant_type: "refresh_token", refresh_token: String(first.refresh_token) }, sandboxClientAuth("lakeshore-health"), "lakeshore-health");
    expect(elsewhere).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await postToken({ grant_type: "refresh_token", refresh_token: String(first.refresh_token) })).status).toBe(200);
  });

  it("an unknown refresh token or none at all is refused", async () => {
    expect(await postToken({ grant_type: "refresh_token", refresh_token: "nope" })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(await postToken({ grant_type: "refresh_token" })).toMatchObject({ status: 400, body: { error: "invalid_request" } });
  });
});
