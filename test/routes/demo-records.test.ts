import { afterEach, describe, expect, it } from "vitest";
import { CATEGORIES, type Category, type NormalizedRecord, recordSchemas } from "@/lib/records";
import { findScenario, sourceUri } from "@/lib/sandbox";
import { DATA_NOTICE, hasPatient, legacyRecordSchema, type NormalizedRecordResponse, normalizedRecordResponseSchema, type PatientScenario, patientScenarios, RATE_LIMIT_SLOT_MS, setDemoClock } from "@/lib/demo";
import { callApi, errorCode } from "@/test/route-calls";

function scenario(id: string): PatientScenario {
  const found = findScenario(id);
  if (!found || !hasPatient(found)) throw new Error(`no patient scenario ${id}`);
  return found;
}

function allRecords(body: NormalizedRecordResponse): NormalizedRecord[] {
  return Object.values(body.sections).flatMap((section): NormalizedRecord[] => section?.records ?? []);
}

function readUser(subject: string, query = "") {
  return callApi(`/demo/v1/users/${subject}/records${query}`);
}

function readLegacy(patientId: string, query = "") {
  return callApi(`/demo/v1/patients/${patientId}/records${query}`);
}

/** Pins the demo clock inside a limited (even) or open (odd) slot of the rate-limited scenario. */
function pinSlot(kind: "limited" | "open", offsetMs = 0) {
  const slot = 1_000_000 + (kind === "limited" ? 0 : 1);
  restoreClock = setDemoClock(() => slot * RATE_LIMIT_SLOT_MS + offsetMs);
}

let restoreClock: (() => void) | null = null;
afterEach(() => {
  restoreClock?.();
  restoreClock = null;
});

describe("GET /demo/v1/users/{subject}/records", () => {
  it("serves every patient scenario's sections as valid normalized records, schema version 2", async () => {
    pinSlot("open");
    for (const entry of patientScenarios().filter((candidate) => candidate.behavior !== "consent_revoked")) {
      const call = await readUser(entry.subject);
      expect(call.status, entry.id).toBe(200);
      expect(call.headers.get("cache-control")).toBe("no-store");
      const body = normalizedRecordResponseSchema.parse(call.body);
      expect(body.meta.schemaVersion).toBe(2);
      expect(body.notice).toBe(DATA_NOTICE);
      expect(Object.keys(body.sections)).toEqual([...entry.consentCategories]);
      for (const [category, section] of Object.entries(body.sections) as [Category, { records: unknown[] }][]) {
        for (const record of section.records) {
          const parsed = recordSchemas[category].safeParse(record);
          expect(parsed.success, `${entry.id} ${category}: ${parsed.error?.message}`).toBe(true);
        }
      }
    }
  });

  it("serves all ten categories for baseline-adult, with documents and claims empty", async () => {
    const baseline = scenario("baseline-adult");
    const body = normalizedRecordResponseSchema.parse((await readUser(baseline.subject)).body);
    expect(Object.keys(body.sections)).toEqual([...CATEGORIES]);
    expect(body.sections.documents?.records).toEqual([]);
    expect(body.sections.claims?.records).toEqual([]);
    expect(body.sections.demographics?.records).toHaveLength(1);
    expect(body.sections.labs?.records.length).toBeGreaterThan(0);
    expect(body).toMatchObject({ syncStatus: "complete", warnings: [], consent: { status: "active" } });
  });

  it("omits unrequested sections and refuses unknown categories", async () => {
    const baseline = scenario("baseline-adult");
    const body = normalizedRecordResponseSchema.parse((await readUser(baseline.subject, "?categories=labs,%20allergies,labs")).body);
    expect(Object.keys(body.sections)).toEqual(["allergies", "labs"]);
    const unknown = await readUser(baseline.subject, "?categories=labs,xrays");
    expect([unknown.status, errorCode(unknown)]).toEqual([400, "invalid_categories"]);
    const empty = await readUser(baseline.subject, "?categories=");
    expect([empty.status, errorCode(empty)]).toEqual([400, "invalid_categories"]);
  });

  it("refuses pagination and change-feed parameters with invalid_query", async () => {
    const baseline = scenario("baseline-adult");
    for (const query of ["?cursor=abc", "?limit=10", "?categories=labs&offset=0"]) {
      const call = await readUser(baseline.subject, query);
      expect([call.status, errorCode(call)], query).toEqual([400, "invalid_query"]);
    }
  });

  it("answers 404 for an unknown subject, a session scenario or a patient id used as subject", async () => {
    for (const subject of ["u_000000000000000000000000", "nobody", scenario("baseline-adult").patientId]) {
      const call = await readUser(subject);
      expect([call.status, errorCode(call)]).toEqual([404, "not_found"]);
    }
  });

  it("merges facts two sources share into one record listing both", async () => {
    const overlap = scenario("multi-source-overlap");
    const body = normalizedRecordResponseSchema.parse((await readUser(overlap.subject)).body);
    const records = allRecords(body);
    expect(records.some((record) => new Set(record.sources.map((source) => source.sourceId)).size === 2)).toBe(true);
    expect(body.sources).toHaveLength(2);
  });

  it("source-unavailable: 200, syncStatus partial, a source_unavailable warning, no records of the second source", async () => {
    const entry = scenario("source-unavailable");
    const call = await readUser(entry.subject);
    expect(call.status).toBe(200);
    expect(call.headers.get("x-service-scenario")).toBe("source-unavailable");
    const body = normalizedRecordResponseSchema.parse(call.body);
    expect(body.syncStatus).toBe("partial");
    const unavailable = body.sources.filter((source) => source.status === "unavailable");
    expect(unavailable.map((source) => source.providerId)).toEqual([entry.sources[1]?.providerId]);
    expect(body.warnings).toEqual([{ code: "source_unavailable", message: expect.any(String), sourceId: unavailable[0]?.sourceId }]);
    const records = allRecords(body);
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((record) => record.sources.every((source) => source.sourceId !== unavailable[0]?.sourceId))).toBe(true);
  });

  it("consent-revoked: 410 consent_inactive, not cacheable", async () => {
    const call = await readUser(scenario("consent-revoked").subject);
    expect([call.status, errorCode(call)]).toEqual([410, "consent_inactive"]);
    expect(call.headers.get("x-service-scenario")).toBe("consent-revoked");
    expect(call.headers.get("cache-control")).toBe("no-store");
  });

  it("consent-partial: the granted categories by default, 403 consent_scope_exceeded outside the receipt", async () => {
    const entry = scenario("consent-partial");
    const body = normalizedRecordResponseSchema.parse((await readUser(entry.subject)).body);
    expect(Object.keys(body.sections)).toEqual(["medications", "allergies"]);
    expect(body.consent.categories).toEqual(["medications", "allergies"]);
    const granted = await readUser(entry.subject, "?categories=allergies");
    expect(granted.status).toBe(200);
    const outside = await readUser(entry.subject, "?categories=allergies,labs");
    expect([outside.status, errorCode(outside)]).toEqual([403, "consent_scope_exceeded"]);
  });

  it("rate-limited: 429 with Retry-After in even 2-second slots, 200 in odd ones, judged by the injected clock", async () => {
    const entry = scenario("rate-limited");
    pinSlot("limited");
    const limited = await readUser(entry.subject);
    expect([limited.status, errorCode(limited)]).toEqual([429, "rate_limited"]);
    expect(limited.headers.get("x-service-scenario")).toBe("rate-limited");
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(limited.headers.get("cache-control")).toBe("no-store");
    restoreClock?.();
    pinSlot("limited", 1500);
    expect((await readUser(entry.subject)).headers.get("retry-after")).toBe("1");
    restoreClock?.();
    pinSlot("open");
    const open = await readUser(entry.subject);
    expect(open.status).toBe(200);
    expect(open.headers.get("x-service-scenario")).toBe("rate-limited");
  });

  it("returns a behavior scenario's error before checking query parameters other than categories", async () => {
    pinSlot("limited");
    const limited = await readUser(scenario("rate-limited").subject, "?cursor=abc");
    expect(errorCode(limited)).toBe("rate_limited");
    restoreClock?.();
    pinSlot("open");
    const open = await readUser(scenario("rate-limited").subject, "?cursor=abc");
    expect(errorCode(open)).toBe("invalid_query");
    expect(errorCode(await readUser(scenario("consent-revoked").subject, "?limit=5"))).toBe("consent_inactive");
    expect(errorCode(await readUser(scenario("consent-partial").subject, "?categories=labs&cursor=x"))).toBe("consent_scope_exceeded");
    expect(errorCode(await readUser(scenario("consent-partial").subject, "?categories=allergies&cursor=x"))).toBe("invalid_query");
    // Categories are validated before the scenario's error.
    expect(errorCode(await readUser(scenario("consent-revoked").subject, "?categories=xrays"))).toBe("invalid_categories");
  });
});

describe("GET /demo/v1/patients/{patientId}/records (legacy)", () => {
  it("groups the patient's FHIR resources by category, each tagged as test data", async () => {
    const baseline = scenario("baseline-adult");
    const call = await readLegacy(baseline.patientId);
    expect(call.status).toBe(200);
    const body = legacyRecordSchema.parse(call.body);
    expect(body).toMatchObject({ object: "demo_record", patient_id: baseline.patientId, scenario: "baseline-adult", syncStatus: "complete" });
    expect(Object.keys(body.record)).toEqual([...CATEGORIES]);
    expect(body.record.demographics?.map((resource) => resource.resourceType)).toEqual(["Patient"]);
    expect(new Set(body.record.labs?.map((resource) => resource.resourceType))).toEqual(new Set(["Observation"]));
    expect(new Set(body.record.medications?.map((resource) => resource.resourceType))).toEqual(
      new Set(["MedicationRequest", "MedicationStatement"]),
    );
    expect(body.record.documents).toEqual([]);
    const labIds = new Set(body.record.labs?.map((resource) => resource.id));
    expect(body.record.vitals?.some((resource) => labIds.has(resource.id))).toBe(false);
  });

  it("serves the requested categories only and ignores every other parameter", async () => {
    const baseline = scenario("baseline-adult");
    const body = legacyRecordSchema.parse((await readLegacy(baseline.patientId, "?categories=allergies&cursor=abc&limit=1")).body);
    expect(Object.keys(body.record)).toEqual(["allergies"]);
    expect(body.categories).toEqual(["allergies"]);
  });

  it("answers 404 for an unknown patient", async () => {
    const call = await readLegacy("nobody");
    expect([call.status, errorCode(call)]).toEqual([404, "not_found"]);
  });

  it("validates categories before the scenario errors 429, 410 and 403", async () => {
    pinSlot("limited");
    expect(errorCode(await readLegacy(scenario("rate-limited").patientId, "?categories=xrays"))).toBe("invalid_categories");
    expect(errorCode(await readLegacy(scenario("rate-limited").patientId))).toBe("rate_limited");
    expect(errorCode(await readLegacy(scenario("consent-revoked").patientId, "?categories=xrays"))).toBe("invalid_categories");
    expect(errorCode(await readLegacy(scenario("consent-revoked").patientId))).toBe("consent_inactive");
    expect(errorCode(await readLegacy(scenario("consent-partial").patientId, "?categories=xrays"))).toBe("invalid_categories");
    expect(errorCode(await readLegacy(scenario("consent-partial").patientId, "?categories=labs"))).toBe("consent_scope_exceeded");
  });

  it("applies the behaviors after validation: open slot, partial grant, partial sync", async () => {
    pinSlot("open");
    expect((await readLegacy(scenario("rate-limited").patientId, "?cursor=x")).status).toBe(200);
    const partial = legacyRecordSchema.parse((await readLegacy(scenario("consent-partial").patientId)).body);
    expect(Object.keys(partial.record)).toEqual(["medications", "allergies"]);
    const entry = scenario("source-unavailable");
    const unavailable = legacyRecordSchema.parse((await readLegacy(entry.patientId)).body);
    expect(unavailable.syncStatus).toBe("partial");
    expect(unavailable.warnings.map((warning) => warning.code)).toEqual(["source_unavailable"]);
    const secondSource = sourceUri(entry.sources[1]!.providerId);
    const served = Object.values(unavailable.record).flat();
    expect(served.length).toBeGreaterThan(0);
    expect(served.some((resource) => (resource.meta as { source?: string } | undefined)?.source === secondSource)).toBe(false);
  });
});
