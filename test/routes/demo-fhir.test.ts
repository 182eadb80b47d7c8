import type { Bundle, CapabilityStatement, FhirResource } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { FHIR_TEST_DATA_TAG } from "@/lib/fhir";
import { validateFhirResource } from "@/test/fhir-validate";
import { findScenario, scenarioBundle } from "@/lib/sandbox";
import { catalogEntries, patientScenarios, RATE_LIMIT_SLOT_MS, setDemoClock } from "@/lib/demo";
import { callApi, errorCode } from "@/test/route-calls";

function expectValidFhir(resource: unknown, label: string) {
  const result = validateFhirResource(resource);
  expect(result.errors, label).toEqual([]);
}

function searchType(resourceType: string, query = "") {
  return callApi(`/demo/v1/fhir/${resourceType}${query}`);
}

function readResource(resourceType: string, resourceId: string) {
  return callApi(`/demo/v1/fhir/${resourceType}/${resourceId}`);
}

function hasTestTag(resource: FhirResource) {
  return (resource.meta?.tag ?? []).some((tag) => tag.code === FHIR_TEST_DATA_TAG.code && tag.system === FHIR_TEST_DATA_TAG.system);
}

describe("demo FHIR server", () => {
  // Compiling the R4 schema's CapabilityStatement validator (most of the schema) is the file's first validation:
  // 160 s for the file in a whole run at load 12, beside the browser tests, where the project's 30 s ran out.
  it("GET /fhir/metadata is a valid R4 CapabilityStatement listing every type the Bundles hold", { timeout: 120_000 }, async () => {
    const call = await callApi("/demo/v1/fhir/metadata");
    expect(call.status).toBe(200);
    expect(call.headers.get("content-type")).toContain("application/fhir+json");
    const statement = call.body as CapabilityStatement;
    expect(statement.fhirVersion).toBe("4.0.1");
    const types = statement.rest?.[0]?.resource?.map((resource) => resource.type) ?? [];
    for (const entry of catalogEntries()) expect(types).toContain(entry.resource.resourceType);
    expect(types).toContain("Bundle");
    expectValidFhir(statement, "CapabilityStatement");
  });

  it("search without patient returns every resource of the type in the baseline-adult Bundle, unfiltered", async () => {
    const baseline = scenarioBundle("baseline-adult");
    const types = new Set((baseline.entry ?? []).map((entry) => entry.resource!.resourceType));
    for (const type of types) {
      const call = await searchType(type);
      expect(call.status, type).toBe(200);
      const bundle = call.body as Bundle;
      const expected = (baseline.entry ?? []).filter((entry) => entry.resource?.resourceType === type).map((entry) => entry.resource?.id);
      expect(bundle.type).toBe("searchset");
      expect(bundle.total).toBe(expected.length);
      expect(bundle.entry?.map((entry) => entry.resource?.id)).toEqual(expected);
      expect(bundle.entry?.every((entry) => entry.resource && hasTestTag(entry.resource))).toBe(true);
      expectValidFhir(bundle, `searchset ${type}`);
    }
    // Organizations and practitioners reference no patient, and are still served.
    expect(types.has("Organization")).toBe(true);
  });

  it("search with patient (subject, Patient id or Patient/id) returns that patient's resources of the type", async () => {
    for (const scenario of patientScenarios()) {
      const bySubject = (await searchType("Condition", `?patient=${scenario.subject}`)).body as Bundle;
      expectValidFhir(bySubject, `Condition searchset of ${scenario.id}`);
      const inBundle = (scenarioBundle(scenario.id).entry ?? []).filter((entry) => entry.resource?.resourceType === "Condition");
      expect(bySubject.entry?.map((entry) => entry.resource?.id), scenario.id).toEqual(inBundle.map((entry) => entry.resource?.id));
      const patients = (await searchType("Patient", `?patient=${scenario.patientId}`)).body as Bundle;
      expect(patients.entry?.map((entry) => entry.resource?.id)).toEqual([scenario.patientId]);
      const prefixed = (await searchType("Patient", `?patient=Patient/${scenario.patientId}`)).body as Bundle;
      expect(prefixed.total).toBe(1);
    }
    const baseline = findScenario("baseline-adult")!;
    const organizations = (await searchType("Organization", `?patient=${baseline.subject}`)).body as Bundle;
    expect(organizations.total).toBe(0);
  });

  it("search answers 404 for an unknown patient or an unsupported type, and an empty set for an empty category type", async () => {
    expect(errorCode(await searchType("Condition", "?patient=u_nobody"))).toBe("not_found");
    expect(errorCode(await searchType("Spaceship"))).toBe("not_found");
    const documents = await searchType("DocumentReference");
    expect(documents.status).toBe(200);
    expect((documents.body as Bundle).total).toBe(0);
    expectValidFhir(documents.body, "empty searchset");
  });

  // Validates every resource of every scenario against the R4 schema: 15 s of CPU alone, several times that beside the
  // integration files and the production build on 2 cores, so it gets a budget for that rather than the default.
  it("reads every resource of every scenario Bundle, and each whole Bundle, as valid R4", { timeout: 240_000 }, async () => {
    for (const { resource } of catalogEntries()) {
      const call = await readResource(resource.resourceType, resource.id!);
      expect(call.status, `${resource.resourceType}/${resource.id}`).toBe(200);
      const served = call.body as FhirResource;
      expect(served.id).toBe(resource.id);
      expect(hasTestTag(served)).toBe(true);
      expectValidFhir(served, `${resource.resourceType}/${resource.id}`);
    }
    for (const scenario of patientScenarios()) {
      const call = await readResource("Bundle", scenario.bundleId);
      expect(call.status).toBe(200);
      const bundle = call.body as Bundle;
      expect(bundle.id).toBe(scenario.bundleId);
      expect(bundle.entry?.length).toBe(scenarioBundle(scenario.id).entry?.length);
      expectValidFhir(bundle, `Bundle ${scenario.bundleId}`);
    }
  });

  it("read answers 404 for an absent resource or a type that does not match", async () => {
    const baseline = findScenario("baseline-adult")!;
    expect(errorCode(await readResource("Condition", "nope"))).toBe("not_found");
    expect(errorCode(await readResource("Condition", baseline.patientId!))).toBe("not_found");
    expect(errorCode(await readResource("Bundle", "nope"))).toBe("not_found");
  });

  it("never applies consent or rate-limit behaviors", async () => {
    const restore = setDemoClock(() => 1_000_000 * RATE_LIMIT_SLOT_MS);
    try {
      for (const id of ["rate-limited", "consent-revoked", "consent-partial"]) {
        const scenario = findScenario(id)!;
        expect((await searchType("Observation", `?patient=${scenario.subject}`)).status, id).toBe(200);
        expect((await readResource("Patient", scenario.patientId!)).status, id).toBe(200);
      }
    } finally {
      restore();
    }
  });
});
