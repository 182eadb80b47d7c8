import { afterEach, describe, expect, it, vi } from "vitest";
import { grantReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { importSource, runSourceImport } from "@/lib/imports";
import { newId } from "@/lib/ids";
import { setLiveProviderDisabled, testLiveProvider } from "@/lib/provider-directory";
import { sourceResources } from "@/lib/sandbox";
import { openSourceTokens } from "@/lib/sources";
import { request } from "@/test/api-server";
import { createTestSubject } from "@/test/factories";
import { addThirdPartyProvider, connectThirdPartyPatient, FLOW_ORIGIN, startThirdPartySmartForFile } from "@/test/third-party-smart/live-patient";
import { availableProviders, beginSignIn, chooseProviders } from ".";
import { linkToken } from "./link-tokens";

// The live Connect flow end to end at the domain level, against a SMART on FHIR server no code of ours serves
// (test/third-party-smart), with the platform's API answering over real HTTP.

const servers = startThirdPartySmartForFile({ allowTestServerHost: false });
afterEach(() => vi.unstubAllEnvs());

/** The deployment names the test server's host, as a self-hosted network would name its EHR. */
function allowTestServerHost() {
  vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "127.0.0.1");
}

let added: ReturnType<typeof addThirdPartyProvider> | null = null;

/** The third-party server in the live directory, added once by an operator (one row per FHIR base URL). */
async function liveProvider() {
  added ??= addThirdPartyProvider(servers.smart());
  const found = await added;
  vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", found.operator.email);
  return found;
}

const ASKED = ["labs", "vitals", "conditions", "medications", "allergies"];

/** An approved application's live key opens a session; the patient signs in at the third-party server (PKCE S256) and consents. */
async function connectLivePatient(providerId: string, patient: string, syncMode: "one_time" | "continuous" = "one_time", granted = ASKED) {
  const connected = await connectThirdPartyPatient({ api: servers.api(), providerId, patient, asked: ASKED, granted, application: { syncMode } });
  expect(connected.authorizationUrl.origin).toBe(servers.smart().origin);
  expect(connected.authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
  expect(connected.authorizationUrl.searchParams.get("redirect_uri")).toBe(`${FLOW_ORIGIN}/connect/callback`);
  return connected;
}

const records = async (key: string, subject: string) => request(servers.api().origin, "GET", `/api/v1/users/${subject}/records`, { token: key });
const tokenRequests = () => servers.smart().requests.filter((line) => line.startsWith("POST /token")).length;

describe("the live Connect flow against a third-party SMART on FHIR server", () => {
  it("lists the deployment's enabled live providers, authorizes with PKCE S256 at the provider, and imports through the import job", async () => {
    allowTestServerHost();
    const { operator, provider } = await liveProvider();
    const live = await availableProviders("live");
    expect(live).toContainEqual({ id: provider.id, name: "Third Party Health", location: "Springfield, IL", description: "" });
    expect((await availableProviders("sandbox")).map((choice) => choice.id)).not.toContain(provider.id);

    const connected = await connectLivePatient(provider.id, "999");
    expect(connected.source).toMatchObject({ connected: true, fhirPatientId: "999" });
    // The operator disables it: a session that chose it earlier starts no new sign-in there.
    const pending = (await request(servers.api().origin, "POST", "/api/v1/connect/sessions", { token: connected.liveKey, body: { categories: ["labs"] } })).body.id as string;
    await chooseProviders(pending, "live", [provider.id]);
    await setLiveProviderDisabled(operator.id, provider.id, true);
    await expect(beginSignIn(linkToken("session", pending), provider.id, FLOW_ORIGIN)).rejects.toMatchObject({ code: "invalid_request", message: expect.stringContaining("no longer offered") });
    await setLiveProviderDisabled(operator.id, provider.id, false);
    await importSource(connected.source.id);
    expect(await db().source.findUniqueOrThrow({ where: { id: connected.source.id } })).toMatchObject({ syncStatus: "synced", lastError: null });
    // Every read went to the third-party server, for its patient.
    // Only the shared categories' types are read: demographics is not shared, so the Patient is not read.
    expect(servers.smart().requests).toEqual(expect.arrayContaining([expect.stringMatching(/^GET \/fhir\/Observation\?patient=999&/)]));
    expect(servers.smart().requests).not.toContain("GET /fhir/Patient/999");

    const read = await records(connected.liveKey, connected.subjectId);
    expect(read.status).toBe(200);
    // The Inferno sample patient's conditions, each traced to its resource on the third-party server.
    const text = JSON.stringify(read.body);
    expect(text).toContain("Type 2 diabetes mellitus");
    expect(text).toContain('"resourceId":"pdex-Condition-2"');
    expect(await db().record.count({ where: { subjectId: connected.subjectId, deletedAt: null } })).toBeGreaterThan(3);
  });

  it("live data never reaches a sandbox key, and sandbox data never reaches a live key", async () => {
    allowTestServerHost();
    const { provider } = await liveProvider();
    const connected = await connectLivePatient(provider.id, "pat015");
    await importSource(connected.source.id);
    expect((await records(connected.liveKey, connected.subjectId)).status).toBe(200);
    // The same application's sandbox key: the live subject does not exist for it, and no list shows it.
    expect((await records(connected.sandboxKey, connected.subjectId)).body.error?.code).toBe("not_found");
    const sandboxList = await request(servers.api().origin, "GET", "/api/v1/users", { token: connected.sandboxKey });
    expect(JSON.stringify(sandboxList.body)).not.toContain(connected.subjectId);

    // The reverse: a sandbox subject of the same application, with records and an active share.
    const subject = await createTestSubject(connected.application.id, "sandbox");
    const sandboxProvider = await db().provider.upsert({
      where: { id: "isolation-sandbox" },
      update: {},
      create: { id: "isolation-sandbox", environment: "sandbox", name: "Sandbox Health", fhirBaseUrl: "http://x/fhir", authorizeUrl: "http://x/a", tokenUrl: "http://x/t", clientId: "c", clientSecretEncrypted: "" },
    });
    const source = await db().source.create({ data: { id: newId("src_"), patientId: subject.patientId, subjectId: subject.id, providerId: sandboxProvider.id, connected: true } });
    await runSourceImport(source.id, async () => sourceResources("baseline-adult", "primary", 0));
    await grantReceipt({ applicationId: connected.application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs", "vitals"], expiresAt: new Date(Date.now() + 86_400_000) });
    expect((await records(connected.sandboxKey, subject.id)).status).toBe(200);
    expect((await records(connected.liveKey, subject.id)).body.error?.code).toBe("not_found");
    const liveList = await request(servers.api().origin, "GET", "/api/v1/users", { token: connected.liveKey });
    expect(JSON.stringify(liveList.body)).toContain(connected.subjectId);
    expect(JSON.stringify(liveList.body)).not.toContain(subject.id);
  });

  it("a server that refuses the default page size as a bad request is read at 100 a page: nothing is lost or taken for deleted", async () => {
    allowTestServerHost();
    const { provider } = await liveProvider();
    const connected = await connectLivePatient(provider.id, "pat015");
    servers.smart().limitPageSize(100);
    try {
      const readFrom = servers.smart().requests.length;
      const limited = await importSource(connected.source.id);
      const searches = servers.smart().requests.slice(readFrom).filter((line) => line.startsWith("GET /fhir/Observation?"));
      expect(searches).toEqual([expect.stringContaining("_count=1000"), expect.stringContaining("_count=100")]);
      expect(limited.outcome.upserts).toBeGreaterThan(0);
    } finally {
      servers.smart().limitPageSize(null);
    }
    // Read again at the default page size: the same records, none new and none deleted.
    const again = await importSource(connected.source.id);
    expect(again.outcome).toMatchObject({ upserts: 0, deletes: 0 });
  });

  it("an expired access token is refreshed during an import, and the change on the server arrives", async () => {
    allowTestServerHost();
    const { provider } = await liveProvider();
    const connected = await connectLivePatient(provider.id, "999");
    await importSource(connected.source.id);
    const before = await db().source.findUniqueOrThrow({ where: { id: connected.source.id } });

    await servers.smart().putResource({
      resourceType: "Observation",
      id: "third-party-new-glucose",
      status: "final",
      category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "laboratory" }] }],
      code: { coding: [{ system: "http://loinc.org", code: "2345-7", display: "Glucose [Mass/volume] in Serum or Plasma" }], text: "Glucose" },
      subject: { reference: "Patient/999" },
      effectiveDateTime: "2026-11-20T08:00:00Z",
      valueQuantity: { value: 97, unit: "mg/dL", system: "http://unitsofmeasure.org", code: "mg/dL" },
    });
    await servers.smart().expireAccessTokens();
    const tokensBefore = tokenRequests();
    await importSource(connected.source.id);

    const after = await db().source.findUniqueOrThrow({ where: { id: connected.source.id } });
    expect(after).toMatchObject({ syncStatus: "synced", lastError: null });
    // One refresh (the 401 of the first read), stored sealed: the access token at rest changed.
    expect(tokenRequests()).toBe(tokensBefore + 1);
    expect(after.accessTokenEncrypted).not.toBe(before.accessTokenEncrypted);
    expect(JSON.stringify((await records(connected.liveKey, connected.subjectId)).body)).toContain("Glucose");
  });

  it("categories unticked after sign-in narrow the third-party server's tokens, and a refresh keeps them narrow", async () => {
    allowTestServerHost();
    const { provider } = await liveProvider();
    const connected = await connectLivePatient(provider.id, "999", "one_time", ["conditions"]);
    /** The scope stored with the source, and what its access token may read at the third-party server. */
    const storedToken = async () => {
      const tokens = openSourceTokens(await db().source.findUniqueOrThrow({ where: { id: connected.source.id } }));
      const get = (type: string) => fetch(`${servers.smart().fhirBaseUrl}/${type}?patient=999`, { headers: { Authorization: `Bearer ${tokens.accessToken}`, Accept: "application/fhir+json" } });
      return { scope: tokens.scope.split(" ").filter((scope) => scope.startsWith("patient/")), conditions: (await get("Condition")).status, labs: (await get("Observation")).status };
    };
    expect((await storedToken()).labs).toBe(200);
    const tokensBefore = tokenRequests();
    await importSource(connected.source.id);
    expect(tokenRequests()).toBe(tokensBefore + 1);
    // Conditions, and the context their records reference that this server granted (it serves no other context type).
    const narrow = ["patient/Condition.read", "patient/Encounter.read"];
    expect(await storedToken()).toEqual({ scope: narrow, conditions: 200, labs: 403 });

    await servers.smart().expireAccessTokens();
    await importSource(connected.source.id);
    expect(tokenRequests()).toBe(tokensBefore + 2);
    expect(await storedToken()).toEqual({ scope: narrow, conditions: 200, labs: 403 });
    expect(await db().source.findUniqueOrThrow({ where: { id: connected.source.id } })).toMatchObject({ syncStatus: "synced", lastError: null });
  });

  it("a revoked refresh token fails the source as reauthorization_required, and a continuous application gets sync.failed", async () => {
    allowTestServerHost();
    const { provider } = await liveProvider();
    const connected = await connectLivePatient(provider.id, "pat015", "continuous");
    await importSource(connected.source.id);
    await servers.smart().revokeRefreshTokens();
    await servers.smart().expireAccessTokens();

    await expect(importSource(connected.source.id)).rejects.toMatchObject({ code: "reauthorization_required" });
    const source = await db().source.findUniqueOrThrow({ where: { id: connected.source.id } });
    expect(source.syncStatus).toBe("partial");
    expect(source.lastError).toMatch(/^reauthorization_required: .*invalid_grant/);
    const failures = await db().event.findMany({ where: { applicationId: connected.application.id, type: "sync.failed" } });
    expect(failures.map((event) => event.data)).toEqual([expect.objectContaining({ sourceId: source.id, providerId: provider.id, code: "reauthorization_required" })]);
    // Records already imported stay readable.
    expect((await records(connected.liveKey, connected.subjectId)).status).toBe(200);
  });

  it("a request the outbound rules refuse fails the source with the reason, and the operator's connection test shows it", async () => {
    allowTestServerHost();
    const { operator, provider } = await liveProvider();
    const connected = await connectLivePatient(provider.id, "999");
    // The deployment stops naming the host: the server is now a plain-http loopback address like any other.
    vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "");
    const readsBefore = servers.smart().requests.length;
    await expect(importSource(connected.source.id)).rejects.toMatchObject({ code: "provider_unavailable" });
    expect(servers.smart().requests.length).toBe(readsBefore);
    const source = await db().source.findUniqueOrThrow({ where: { id: connected.source.id } });
    expect(source.lastError).toMatch(/^provider_unavailable: The Condition search \(page 1\) was refused by the outbound rules: refused http:\/\/127\.0\.0\.1:\d+\/fhir\/Condition\?patient=999&_count=1000: health systems must use https/);
    expect(await testLiveProvider(operator.id, provider.id)).toMatchObject({ checkError: expect.stringContaining("health systems must use https") });
  });
});
