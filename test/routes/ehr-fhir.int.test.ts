import * as ehrRoutes from "@/app/ehr/[[...path]]/route";
import type { Bundle, CapabilityStatement, FhirResource } from "fhir/r4";
import { afterEach, describe, expect, it, vi } from "vitest";
import { advanceEhrPatientPhase, clearEhrFaults, ehrEndpoints, injectEhrFault } from "@/lib/ehr";
import { FHIR_TEST_DATA_TAG, withTestDataTag } from "@/lib/fhir";
import { validateFhirResource } from "@/test/fhir-validate";
import { sourceResources } from "@/lib/sandbox";
import { FHIR_PATIENT_ID, PATIENT_KEY, PROVIDER, tokensFor } from "@/test/ehr";
import { routeContext } from "@/test/factories";

type FhirCall = { status: number; headers: Headers; body: Record<string, unknown> };

async function fhirGet(path: string, token: string | null, providerId = PROVIDER): Promise<FhirCall> {
  const url = new URL(path, ehrEndpoints(providerId).fhirBase + "/");
  const [resourceType, resourceId] = url.pathname.split("/fhir/")[1]!.split("/");
  const request = new Request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const response = resourceId
    ? await ehrRoutes.GET(request, routeContext({ providerId, resourceType: resourceType!, resourceId }))
    : await ehrRoutes.GET(request, routeContext({ providerId, resourceType: resourceType! }));
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

function outcomeCode(call: FhirCall): string | undefined {
  expect(call.body.resourceType).toBe("OperationOutcome");
  return (call.body as { issue: { details: { text: string } }[] }).issue[0]?.details.text;
}

const expectedAt = (phase: number, type: string) =>
  sourceResources("baseline-adult", "primary", phase).filter((resource) => resource.resourceType === type).map(withTestDataTag);

async function accessToken(scope?: string): Promise<string> {
  return String((await tokensFor({ scope })).access_token);
}

afterEach(() => {
  clearEhrFaults();
  vi.useRealTimers();
});

describe("the synthetic health system's FHIR API", () => {
  it("metadata needs no token: a valid CapabilityStatement naming the OAuth endpoints", async () => {
    const response = await ehrRoutes.GET(new Request(`${ehrEndpoints(PROVIDER).fhirBase}/metadata`), routeContext({ providerId: PROVIDER }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/fhir+json");
    const statement = (await response.json()) as CapabilityStatement;
    expect(validateFhirResource(statement).errors).toEqual([]);
    const security = statement.rest?.[0]?.security;
    expect(security?.service?.[0]?.coding?.[0]?.code).toBe("SMART-on-FHIR");
    const uris = security?.extension?.find((extension) => extension.url.endsWith("/oauth-uris"))?.extension;
    expect(uris).toEqual([
      { url: "authorize", valueUri: ehrEndpoints(PROVIDER).authorize },
      { url: "token", valueUri: ehrEndpoints(PROVIDER).token },
    ]);
    const types = statement.rest?.[0]?.resource?.map((resource) => resource.type);
    expect(types).toEqual(expect.arrayContaining(["Patient", "Observation", "Condition", "DocumentReference", "ExplanationOfBenefit", "Encounter"]));
    // The project's 60 s: compiling the R4 schema's CapabilityStatement validator took 33 s beside the browser tests.
  });

  it("everything else needs a valid token of this health system: 401 invalid_token with a Bearer challenge", async () => {
    const missing = await fhirGet("Observation", null);
    expect(missing.status).toBe(401);
    expect(outcomeCode(missing)).toBe("invalid_token");
    expect(missing.headers.get("www-authenticate")).toBe(`Bearer realm="${ehrEndpoints(PROVIDER).fhirBase}"`);

    const forged = await fhirGet("Observation", "ehr1.e30.AAAA");
    expect(forged.status).toBe(401);
    expect(forged.headers.get("www-authenticate")).toContain('error="invalid_token"');

    const token = await accessToken();
    const tampered = token.replace(/\.([^.]+)\./, (_, payload: string) => `.${Buffer.from(Buffer.from(payload, "base64url").toString().replace(PATIENT_KEY, "pediatric-child.primary")).toString("base64url")}.`);
    expect((await fhirGet("Observation", tampered)).status).toBe(401);

    const lakeshore = String((await tokensFor({ providerId: "lakeshore-health", patientKey: "multi-source-overlap.primary" })).access_token);
    const wrongServer = await fhirGet("Observation", lakeshore);
    expect(wrongServer.status).toBe(401);
    expect(wrongServer.headers.get("www-authenticate")).toContain("another health system");
  });

  it("a token expires after five minutes", async () => {
    const token = await accessToken();
    expect((await fhirGet("Observation", token)).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 301_000);
    const expired = await fhirGet("Observation", token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toContain("expired");
  });

  it("search returns the token's patient's resources of the type at phase 0, tagged as test data, valid R4", async () => {
    const token = await accessToken();
    for (const type of ["Observation", "Condition", "Patient", "Encounter", "DocumentReference"]) {
      const call = await fhirGet(`${type}?patient=${FHIR_PATIENT_ID}`, token);
      expect(call.status, type).toBe(200);
      const bundle = call.body as unknown as Bundle;
      expect(bundle.type).toBe("searchset");
      expect(bundle.meta?.tag).toEqual([FHIR_TEST_DATA_TAG]);
      expect(bundle.entry?.map((entry) => entry.resource) ?? []).toEqual(expectedAt(0, type));
      expect(bundle.entry?.every((entry) => entry.search?.mode === "match" && entry.fullUrl?.endsWith(`/${type}/${entry.resource?.id}`))).toBe(true);
      expect(validateFhirResource(bundle).errors).toEqual([]);
    }
  }, 30_000);

  it("pages with _count: next links carry the patient and reach every match once", async () => {
    const token = await accessToken();
    const seen: FhirResource[] = [];
    let next: string | undefined = `${ehrEndpoints(PROVIDER).fhirBase}/Observation?_count=5`;
    let pages = 0;
    while (next) {
      const call = await fhirGet(next, token);
      const bundle = call.body as unknown as Bundle;
      expect(bundle.entry!.length).toBeLessThanOrEqual(5);
      seen.push(...bundle.entry!.map((entry) => entry.resource!));
      next = bundle.link?.find((link) => link.relation === "next")?.url;
      if (next) expect(new URL(next).searchParams.get("patient")).toBe(FHIR_PATIENT_ID);
      pages += 1;
    }
    expect(pages).toBe(Math.ceil(expectedAt(0, "Observation").length / 5));
    expect(seen).toEqual(expectedAt(0, "Observation"));
  });

  it("a token reads only its patient: another patient in a search is 403, another patient's resource is 404", async () => {
    const token = await accessToken();
    expect((await fhirGet(`Observation?patient=Patient/${FHIR_PATIENT_ID}`, token)).status).toBe(200);
    const other = await fhirGet("Observation?patient=pediatric-child-patient", token);
    expect(other.status).toBe(403);
    expect(outcomeCode(other)).toBe("subject_mismatch");

    const own = sourceResources("baseline-adult", "primary", 0).find((resource) => resource.resourceType === "Condition")!;
    const read = await fhirGet(`Condition/${own.id}`, token);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(withTestDataTag(own));
    expect((await fhirGet(`Patient/${FHIR_PATIENT_ID}`, token)).status).toBe(200);

    const someoneElses = sourceResources("pediatric-child", "primary", 0).find((resource) => resource.resourceType === "Condition")!;
    const foreign = await fhirGet(`Condition/${someoneElses.id}`, token);
    expect(foreign.status).toBe(404);
    expect(outcomeCode(foreign)).toBe("not_found");
    expect((await fhirGet("Patient/pediatric-child-patient", token)).status).toBe(404);
  });

  it("honours scopes: a per-type token reads only its types, and v2 r without s may read but not search", async () => {
    const observationsOnly = await accessToken("launch/patient patient/Observation.read");
    expect((await fhirGet("Observation", observationsOnly)).status).toBe(200);
    const condition = await fhirGet("Condition", observationsOnly);
    expect(condition.status).toBe(403);
    expect(outcomeCode(condition)).toBe("insufficient_scope");
    expect(condition.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect((await fhirGet(`Patient/${FHIR_PATIENT_ID}`, observationsOnly)).status).toBe(403);

    const readOnly = await accessToken("launch/patient patient/Patient.r");
    expect((await fhirGet(`Patient/${FHIR_PATIENT_ID}`, readOnly)).status).toBe(200);
    expect((await fhirGet("Patient", readOnly)).status).toBe(403);
  });

  it("an unknown type is 404 and a bad _count 400, as OperationOutcomes", async () => {
    const token = await accessToken();
    const unknown = await fhirGet("Spaceship", token);
    expect(unknown.status).toBe(404);
    expect(outcomeCode(unknown)).toBe("not_found");
    const badCount = await fhirGet("Observation?_count=0", token);
    expect(badCount.status).toBe(400);
    expect(badCount.body.resourceType).toBe("OperationOutcome");
  });

  it("serves the patient's current phase; advancing stops at the source's last phase", async () => {
    const token = await accessToken();
    expect(await advanceEhrPatientPhase(PROVIDER, PATIENT_KEY)).toBe(1);
    const atOne = await fhirGet("Observation", token);
    expect((atOne.body as unknown as Bundle).entry?.map((entry) => entry.resource)).toEqual(expectedAt(1, "Observation"));
    expect(await advanceEhrPatientPhase(PROVIDER, PATIENT_KEY)).toBe(2);
    expect(await advanceEhrPatientPhase(PROVIDER, PATIENT_KEY)).toBe(2);
    const atTwo = await fhirGet("Observation", token);
    expect((atTwo.body as unknown as Bundle).entry?.map((entry) => entry.resource)).toEqual(expectedAt(2, "Observation"));
    await expect(advanceEhrPatientPhase(PROVIDER, "no-such.patient")).rejects.toThrow(/No synthetic patient/);
  });

  it("the test hook answers the patient's next requests 429 with Retry-After, then serves again", async () => {
    const token = await accessToken();
    injectEhrFault(PROVIDER, PATIENT_KEY, { status: 429, count: 2, retryAfterSeconds: 3 });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const limited = await fhirGet("Observation", token);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("3");
      expect(outcomeCode(limited)).toBe("rate_limited");
    }
    expect((await fhirGet("Observation", token)).status).toBe(200);

    injectEhrFault(PROVIDER, PATIENT_KEY, { status: 503 });
    expect((await fhirGet("Observation", token)).status).toBe(503);
    expect((await fhirGet("Observation", token)).status).toBe(200);
  });

  it("a SMART v2 token narrowed to lab results finds and reads only lab Observations (filtered searches, refused reads)", async () => {
    const LAB = "http://terminology.hl7.org/CodeSystem/observation-category|laboratory";
    const token = await accessToken(`launch/patient patient/Observation.rs?category=${LAB} patient/Condition.rs`);
    // The patient's Observations at its current phase (earlier tests may have advanced it), read with a whole grant.
    const observations = ((await fhirGet("Observation", await accessToken())).body as unknown as Bundle).entry!.map((entry) => entry.resource!);
    const labs = observations.filter((resource) => JSON.stringify(resource).includes('"laboratory"'));
    const vitals = observations.filter((resource) => !labs.includes(resource));
    expect(labs.length).toBeGreaterThan(0);
    expect(vitals.length).toBeGreaterThan(0);
    // A search without the category is filtered to the grant; with it, the same; with another category, nothing.
    for (const query of ["Observation", `Observation?category=${encodeURIComponent(LAB)}`, "Observation?category=laboratory"]) {
      const found = await fhirGet(query, token);
      expect(found.status, query).toBe(200);
      expect(((found.body as unknown as Bundle).entry ?? []).map((entry) => entry.resource?.id).sort(), query).toEqual(labs.map((resource) => resource.id).sort());
    }
    const other = await fhirGet(`Observation?category=vital-signs`, token);
    expect((other.body as unknown as Bundle).entry ?? []).toEqual([]);
    expect((await fhirGet(`Observation/${labs[0]!.id}`, token)).status).toBe(200);
    const vital = await fhirGet(`Observation/${vitals[0]!.id}`, token);
    expect(vital.status).toBe(403);
    expect(outcomeCode(vital)).toBe("insufficient_scope");
    // A type the token does not name at all is still refused whole.
    expect((await fhirGet("DiagnosticReport", token)).status).toBe(403);
  });
});
