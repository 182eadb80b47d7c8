import { randomBytes } from "node:crypto";
import type { FhirResource } from "fhir/r4";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decryptSecret, encryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { advanceEhrPatientPhase, clearEhrFaults, injectEhrFault, issueAuthorizationCodeDirectly, SANDBOX_CLIENT_ID, sandboxClientSecret } from "@/lib/ehr";
import { withTestDataTag } from "@/lib/fhir";
import { validateFhirResource } from "@/test/fhir-validate";
import { newId } from "@/lib/ids";
import { CATEGORIES, CONTEXT_RESOURCE_TYPES } from "@/lib/records";
import { sourceResources } from "@/lib/sandbox";
import {
  beginAuthorization,
  completeAuthorization,
  discoverSmartServer,
  ensureSandboxProviders,
  fetchPatientResources,
  importedResourceTypes,
  scopeForCategories,
  SourceError,
  storeSourceTokens,
  type HttpPolicy,
} from "@/lib/sources";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { listenOnFreePort } from "@/test/raw-http";
import { serveRouteFiles, type ServedRequest } from "@/test/route-server";

const PROVIDER = "riverbend-health";
const PATIENT_KEY = "baseline-adult.primary";
/** Quick retries, so the test waits on Retry-After rather than on backoff. */
const POLICY: HttpPolicy = { timeoutMs: 10_000, maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 200, maxRetryAfterMs: 5_000 };

let ehr: Awaited<ReturnType<typeof serveRouteFiles>>;
const previousPublicUrl = process.env.CHARTKEY_PUBLIC_URL;

beforeAll(async () => {
  ehr = await serveRouteFiles("ehr");
  // The synthetic health systems live on the platform's own origin: here, the test's server.
  process.env.CHARTKEY_PUBLIC_URL = ehr.origin;
});

afterAll(async () => {
  process.env.CHARTKEY_PUBLIC_URL = previousPublicUrl;
  clearEhrFaults();
  await ehr.close();
});

async function connectSession(): Promise<string> {
  const { application } = await createTestApplication();
  const session = await db().connectSession.create({
    data: {
      id: newId("cs_"),
      applicationId: application.id,
      environment: "sandbox",
      // Every category: these tests read every type the import reads, and the sign-in asks for the session's scopes.
      categories: [...CATEGORIES],
      connectTokenHash: randomBytes(16).toString("hex"),
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  return session.id;
}

const callbackUri = () => `${ehr.origin}/connect/callback`;

/** The patient on the authorization page: the page over HTTP, then the Allow (or Deny) form posted back. */
async function signInAtPage(authorizationUrl: string, decision: "allow" | "deny"): Promise<string> {
  const page = await fetch(authorizationUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const form = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) {
    form.set(match[1]!, match[2]!.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">"));
  }
  form.set("patient", PATIENT_KEY);
  form.set("decision", decision);
  const action = /<form method="post" action="([^"]+)">/.exec(html)![1]!;
  const answer = await fetch(new URL(action, authorizationUrl), { method: "POST", body: form, redirect: "manual" });
  expect(answer.status).toBe(303);
  return answer.headers.get("location")!;
}

async function connectedSource(): Promise<{ sourceId: string; sessionId: string }> {
  const sessionId = await connectSession();
  const begun = await beginAuthorization({ connectSessionId: sessionId, providerId: PROVIDER, redirectUri: callbackUri() });
  const callbackUrl = await issueAuthorizationCodeDirectly({ authorizationUrl: begun.authorizationUrl, patientKey: PATIENT_KEY });
  const { tokens } = await completeAuthorization({ state: begun.state, callbackUrl, policy: POLICY });
  const session = await db().connectSession.findUniqueOrThrow({ where: { id: sessionId } });
  const subject = await createTestSubject(session.applicationId);
  const source = await db().source.create({
    data: { id: newId("src_"), patientId: subject.patientId, subjectId: subject.id, providerId: PROVIDER, sourceKey: "primary", connectSessionId: sessionId },
  });
  await storeSourceTokens(source.id, tokens);
  return { sourceId: source.id, sessionId };
}

/**
 * What the source holds for the types the import reads, as the server serves them: the searched types and the
 * context they reference (every Encounter, Practitioner, Organization and Medication of this source is referenced).
 */
function expectedResources(phase: number): FhirResource[] {
  const types = new Set(["Patient", ...importedResourceTypes(), ...CONTEXT_RESOURCE_TYPES]);
  return sourceResources("baseline-adult", "primary", phase).filter((resource) => types.has(resource.resourceType)).map(withTestDataTag);
}

const byKey = (resources: FhirResource[]) => [...resources].sort((a, b) => `${a.resourceType}/${a.id}`.localeCompare(`${b.resourceType}/${b.id}`));

const servedSince = (mark: number): ServedRequest[] => ehr.served.slice(mark);

async function expectSourceError(promise: Promise<unknown>, code: string) {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(SourceError);
  expect((error as SourceError).code).toBe(code);
}

describe("the SMART on FHIR client against a synthetic health system, over HTTP", () => {
  it("sandbox providers are registered like live ones: URLs on this origin, client id, the secret encrypted", async () => {
    await ensureSandboxProviders();
    await ensureSandboxProviders();
    const provider = await db().provider.findUniqueOrThrow({ where: { id: PROVIDER } });
    expect(provider).toMatchObject({
      environment: "sandbox",
      name: "Riverbend Health",
      fhirBaseUrl: `${ehr.origin}/ehr/${PROVIDER}/fhir`,
      authorizeUrl: `${ehr.origin}/ehr/${PROVIDER}/authorize`,
      tokenUrl: `${ehr.origin}/ehr/${PROVIDER}/token`,
      clientId: SANDBOX_CLIENT_ID,
    });
    expect(provider.clientSecretEncrypted).not.toContain(sandboxClientSecret(PROVIDER));
    expect(decryptSecret(provider.clientSecretEncrypted)).toBe(sandboxClientSecret(PROVIDER));
    expect(await db().provider.count({ where: { environment: "sandbox" } })).toBe(9);

    const server = await discoverSmartServer(provider);
    expect(server.as).toMatchObject({ authorization_endpoint: provider.authorizeUrl, token_endpoint: provider.tokenUrl });
  });

  it("discovery → authorization page → callback with state checked → code exchange → every resource, paged, with a 429 retried after Retry-After", async () => {
    const sessionId = await connectSession();
    const begun = await beginAuthorization({ connectSessionId: sessionId, providerId: PROVIDER, redirectUri: callbackUri() });
    const url = new URL(begun.authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${ehr.origin}/ehr/${PROVIDER}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: SANDBOX_CLIENT_ID,
      redirect_uri: callbackUri(),
      // Read access to exactly the session's categories (here all ten) in SMART v2 syntax (the system advertises permission-v2), never patient/*.read.
      scope: scopeForCategories(CATEGORIES, "v2"),
      state: begun.state,
      code_challenge_method: "S256",
      aud: `${ehr.origin}/ehr/${PROVIDER}/fhir`,
    });
    const stored = await db().sourceAuthorization.findUniqueOrThrow({ where: { state: begun.state } });
    expect(stored).toMatchObject({ connectSessionId: sessionId, providerId: PROVIDER, redirectUri: callbackUri(), completedAt: null });
    expect(decryptSecret(stored.codeVerifierEncrypted)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const callbackUrl = await signInAtPage(begun.authorizationUrl, "allow");
    expect(new URL(callbackUrl).searchParams.get("state")).toBe(begun.state);

    // A callback carrying another state, or completing a state this session did not expect, is refused before
    // anything is spent.
    const forged = new URL(callbackUrl);
    forged.searchParams.set("state", "forged");
    await expectSourceError(completeAuthorization({ state: begun.state, callbackUrl: forged.toString(), policy: POLICY }), "invalid_state");
    await expectSourceError(completeAuthorization({ state: "unknown-state", callbackUrl, policy: POLICY }), "invalid_state");

    const completed = await completeAuthorization({ state: begun.state, callbackUrl, policy: POLICY });
    expect(completed).toMatchObject({ connectSessionId: sessionId, providerId: PROVIDER });
    expect(completed.tokens).toMatchObject({ patientId: "baseline-adult-patient", scope: scopeForCategories(CATEGORIES, "v2") });
    expect(completed.tokens.refreshToken).toBeTruthy();
    expect(completed.tokens.expiresAt.getTime()).toBeGreaterThan(Date.now() + 290_000);
    // Single use.
    await expectSourceError(completeAuthorization({ state: begun.state, callbackUrl, policy: POLICY }), "invalid_state");

    const session = await db().connectSession.findUniqueOrThrow({ where: { id: sessionId } });
    const subject = await createTestSubject(session.applicationId);
    const source = await db().source.create({ data: { id: newId("src_"), patientId: subject.patientId, subjectId: subject.id, providerId: PROVIDER, sourceKey: "primary" } });
    await storeSourceTokens(source.id, completed.tokens);
    const row = await db().source.findUniqueOrThrow({ where: { id: source.id } });
    expect(row.fhirPatientId).toBe("baseline-adult-patient");
    expect(row.accessTokenEncrypted).not.toContain(completed.tokens.accessToken);
    expect(decryptSecret(row.refreshTokenEncrypted!)).toBe(completed.tokens.refreshToken);

    injectEhrFault(PROVIDER, PATIENT_KEY, { status: 429, count: 1, retryAfterSeconds: 1 });
    const mark = ehr.served.length;
    const fetched = await fetchPatientResources({ id: source.id }, importedResourceTypes(), { pageSize: 3, policy: POLICY });

    expect(fetched.patientId).toBe("baseline-adult-patient");
    expect(fetched.resources[0]).toEqual(fetched.patient);
    expect(byKey(fetched.resources)).toEqual(byKey(expectedResources(0)));
    expect(fetched.unavailableTypes).toEqual([]);
    for (const resource of fetched.resources) expect(validateFhirResource(resource).errors, `${resource.resourceType}/${resource.id}`).toEqual([]);

    const requests = servedSince(mark);
    const limited = requests.findIndex((request) => request.status === 429);
    expect(limited).toBe(0);
    expect(requests[limited + 1]!.path).toBe(requests[limited]!.path);
    expect(requests[limited + 1]!.at - requests[limited]!.at).toBeGreaterThanOrEqual(1000);
    // Paging followed next links: Observations (22 at phase 0) took eight pages of three.
    expect(requests.filter((request) => request.path.includes("/fhir/Observation?")).length).toBe(8);
    expect(requests.some((request) => request.path.includes("_offset=21"))).toBe(true);
  }, 60_000);

  it("refreshes an expired token before fetching, and a refused one once on 401, storing the rotated tokens", async () => {
    const { sourceId } = await connectedSource();
    const before = await db().source.findUniqueOrThrow({ where: { id: sourceId } });

    await db().source.update({ where: { id: sourceId }, data: { tokenExpiresAt: new Date(Date.now() - 1000) } });
    let mark = ehr.served.length;
    await fetchPatientResources({ id: sourceId }, ["Condition"], { policy: POLICY });
    expect(servedSince(mark)[0]).toMatchObject({ method: "POST", path: `/ehr/${PROVIDER}/token`, status: 200 });
    const afterExpiry = await db().source.findUniqueOrThrow({ where: { id: sourceId } });
    expect(decryptSecret(afterExpiry.refreshTokenEncrypted!)).not.toBe(decryptSecret(before.refreshTokenEncrypted!));
    expect(afterExpiry.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 290_000);

    await db().source.update({ where: { id: sourceId }, data: { accessTokenEncrypted: encryptSecret("ehr1.not.valid") } });
    mark = ehr.served.length;
    const fetched = await fetchPatientResources({ id: sourceId }, ["Condition"], { policy: POLICY });
    expect(servedSince(mark).slice(0, 3).map((request) => `${request.method} ${request.status}`)).toEqual(["GET 401", "POST 200", "GET 200"]);
    expect(fetched.resources.filter((resource) => resource.resourceType === "Condition")).toHaveLength(7);
    const afterRefusal = await db().source.findUniqueOrThrow({ where: { id: sourceId } });
    expect(decryptSecret(afterRefusal.refreshTokenEncrypted!)).not.toBe(decryptSecret(afterExpiry.refreshTokenEncrypted!));
  }, 30_000);

  it("two fetches of one source with an expired token refresh it once, not twice (the rotated token would be refused)", async () => {
    const { sourceId } = await connectedSource();
    await db().source.update({ where: { id: sourceId }, data: { tokenExpiresAt: new Date(Date.now() - 1000) } });
    const mark = ehr.served.length;
    const [first, second] = await Promise.all([
      fetchPatientResources({ id: sourceId }, ["Condition"], { policy: POLICY }),
      fetchPatientResources({ id: sourceId }, ["Condition"], { policy: POLICY }),
    ]);
    expect(first.patientId).toBe(second.patientId);
    expect(servedSince(mark).filter((request) => request.method === "POST")).toHaveLength(1);
  });

  it("a refresh token the provider no longer honours means the patient must sign in again", async () => {
    const { sourceId } = await connectedSource();
    await db().ehrRefreshToken.updateMany({ data: { revokedAt: new Date() } });
    await db().source.update({ where: { id: sourceId }, data: { tokenExpiresAt: new Date(Date.now() - 1000) } });
    await expectSourceError(fetchPatientResources({ id: sourceId }, ["Condition"], { policy: POLICY }), "reauthorization_required");
  });

  it("reads the source's current phase after the sandbox advances it", async () => {
    const { sourceId } = await connectedSource();
    await advanceEhrPatientPhase(PROVIDER, PATIENT_KEY);
    const fetched = await fetchPatientResources({ id: sourceId }, importedResourceTypes(), { policy: POLICY });
    expect(byKey(fetched.resources)).toEqual(byKey(expectedResources(1)));
  });

  it("a patient who denies access ends the authorization as authorization_denied", async () => {
    const sessionId = await connectSession();
    const begun = await beginAuthorization({ connectSessionId: sessionId, providerId: PROVIDER, redirectUri: callbackUri() });
    const callbackUrl = await signInAtPage(begun.authorizationUrl, "deny");
    await expectSourceError(completeAuthorization({ state: begun.state, callbackUrl, policy: POLICY }), "authorization_denied");
  });

  it("retries 5xx with backoff and gives up as source_unavailable; a Retry-After beyond the policy is not waited for", async () => {
    const { sourceId } = await connectedSource();
    injectEhrFault(PROVIDER, PATIENT_KEY, { status: 503, count: 2, retryAfterSeconds: 0 });
    const recovered = await fetchPatientResources({ id: sourceId }, ["Patient", "Condition"], { policy: POLICY });
    expect(recovered.patient?.id).toBe("baseline-adult-patient");

    injectEhrFault(PROVIDER, PATIENT_KEY, { status: 503, count: POLICY.maxAttempts, retryAfterSeconds: 0 });
    await expectSourceError(fetchPatientResources({ id: sourceId }, ["Condition"], { policy: POLICY }), "source_unavailable");

    injectEhrFault(PROVIDER, PATIENT_KEY, { status: 429, count: 1, retryAfterSeconds: 60 });
    const started = Date.now();
    await expectSourceError(fetchPatientResources({ id: sourceId }, ["Condition"], { policy: POLICY }), "rate_limited");
    expect(Date.now() - started).toBeLessThan(5_000);
    clearEhrFaults();
  }, 30_000);
});

describe("providers the SMART client refuses", () => {
  // A SMART server of our own making: each path prefix serves its own configuration (discovery is cached per base).
  const configurations = new Map<string, Record<string, unknown>>();
  const seen: string[] = [];
  let smart: Awaited<ReturnType<typeof listenOnFreePort>>;
  const origin = () => `http://127.0.0.1:${smart.port}`;

  beforeAll(async () => {
    smart = await listenOnFreePort((request, response) => {
      seen.push(request.url ?? "");
      const name = /^\/([\w-]+)\/fhir\/\.well-known\/smart-configuration$/.exec(request.url ?? "")?.[1];
      const configuration = name ? configurations.get(name) : undefined;
      response.writeHead(configuration ? 200 : 404, { "content-type": "application/json" });
      response.end(JSON.stringify(configuration ?? {}));
    });
  });
  afterAll(() => smart.close());

  /** A provider row whose SMART configuration this test serves, with PKCE S256 unless `methods` says otherwise. */
  async function provider(environment: "sandbox" | "live", methods?: string[], endpoints: { authorize?: string; token?: string } = {}) {
    const id = `test-${environment}-${randomBytes(4).toString("hex")}`;
    const base = `${origin()}/${id}`;
    configurations.set(id, {
      authorization_endpoint: endpoints.authorize ?? `${base}/authorize`,
      token_endpoint: endpoints.token ?? `${base}/token`,
      ...(methods ? { code_challenge_methods_supported: methods } : {}),
      capabilities: ["launch-standalone", "client-confidential-symmetric"],
    });
    return db().provider.create({
      data: { id, environment, name: id, fhirBaseUrl: `${base}/fhir`, authorizeUrl: `${base}/authorize`, tokenUrl: `${base}/token`, clientId: "client", clientSecretEncrypted: encryptSecret("secret") },
    });
  }

  it("never authorizes with a provider that does not offer PKCE with S256: no authorization is begun", async () => {
    for (const methods of [["plain"], []]) {
      const refused = await provider("sandbox", methods);
      const sessionId = await connectSession();
      const error = await beginAuthorization({ connectSessionId: sessionId, providerId: refused.id, redirectUri: callbackUri() }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SourceError);
      expect(error).toMatchObject({ code: "provider_unavailable", message: `${refused.name} does not offer PKCE with S256.` });
      expect(await db().sourceAuthorization.count({ where: { connectSessionId: sessionId } })).toBe(0);
    }
    // The same server offering S256 is accepted.
    const accepted = await provider("sandbox", ["plain", "S256"]);
    const begun = await beginAuthorization({ connectSessionId: await connectSession(), providerId: accepted.id, redirectUri: callbackUri() });
    expect(new URL(begun.authorizationUrl).searchParams.get("code_challenge_method")).toBe("S256");
  });

  it("a live provider must be https throughout, unless the deployment names its host; a sandbox one may be plain http", async () => {
    const live = await provider("live", ["S256"]);
    // Refused before any connection: the discovery request itself breaks the outbound rules.
    await expect(discoverSmartServer(live)).rejects.toMatchObject({ code: "provider_unavailable", message: expect.stringMatching(/was refused by the outbound rules: refused http:\/\/127\.0\.0\.1:\d+\/.* health systems must use https/) });
    expect(seen.some((url) => url.includes(live.id))).toBe(false);
    const sandbox = await provider("sandbox", ["S256"]);
    expect((await discoverSmartServer(sandbox)).fhirBaseUrl).toBe(sandbox.fhirBaseUrl);

    vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "127.0.0.1");
    try {
      const named = await provider("live", ["S256"]);
      expect((await discoverSmartServer(named)).fhirBaseUrl).toBe(named.fhirBaseUrl);
      // A named host's configuration may not send the patient or the token request to plain http elsewhere.
      const elsewhere = await provider("live", ["S256"], { authorize: "http://ehr.example.com/authorize" });
      await expect(discoverSmartServer(elsewhere)).rejects.toMatchObject({ code: "provider_unavailable", message: expect.stringContaining("http://ehr.example.com/authorize is refused: health systems must use https") });
      const metadata = await provider("live", ["S256"], { token: "https://169.254.169.254/token" });
      await expect(discoverSmartServer(metadata)).rejects.toMatchObject({ code: "provider_unavailable", message: expect.stringContaining("the host is not a public address") });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
