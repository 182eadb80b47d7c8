import type { Bundle, FhirResource } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { validateFhirResource } from "@/test/fhir-validate";
import { CATEGORIES, FHIR_DATE_PATTERN } from "@/lib/records";
import {
  PROVIDERS,
  SCENARIOS,
  findScenario,
  scenarioBundle,
  scenarioByPatientId,
  scenarioBySubject,
  sourceResources,
  sourceUri,
  type Scenario,
} from "./scenarios";
import { longHistoryBundle } from "./long-history";

// long-history is baseline-adult's visits repeated ten thousand resources deep: the per-resource checks here run on
// the written fixtures, and long-history.test.ts checks what the repetition makes of them.
const patientScenarios = SCENARIOS.filter((scenario) => scenario.kind !== "session" && scenario.id !== "long-history");
const advancingScenarios = patientScenarios.filter((scenario) => scenario.controls.includes("records.advance"));

function resourcesOf(bundle: Bundle): FhirResource[] {
  return (bundle.entry ?? []).flatMap((entry) => (entry.resource ? [entry.resource] : []));
}

/** Every resource of a scenario at every phase of every source, labelled for failure messages. */
function everyPhaseOf(scenario: Scenario): { label: string; resources: FhirResource[] }[] {
  return scenario.sources.flatMap((source) =>
    Array.from({ length: source.phases }, (_, phase) => ({
      label: `${scenario.id}/${source.key}/phase ${phase}`,
      resources: sourceResources(scenario.id, source.key, phase),
    })),
  );
}

/** Every `reference` string anywhere inside a resource. */
function referencesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === "reference" && typeof child === "string" ? [child] : referencesIn(child),
  );
}

function unresolvedReferences(resources: FhirResource[]): string[] {
  const present = new Set(resources.map((resource) => `${resource.resourceType}/${resource.id}`));
  return resources.flatMap((resource) =>
    referencesIn(resource)
      .filter((reference) => !present.has(reference))
      .map((reference) => `${resource.resourceType}/${resource.id} -> ${reference}`),
  );
}

/** Every string value at a given property name anywhere inside a resource. */
function valuesNamed(value: unknown, name: string): string[] {
  if (Array.isArray(value)) return value.flatMap((child) => valuesNamed(child, name));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === name && typeof child === "string" ? [child] : valuesNamed(child, name),
  );
}

describe("scenario manifest", () => {
  it("lists the required scenarios with their kinds, baseline-adult first", () => {
    expect(SCENARIOS[0]?.id).toBe("baseline-adult");
    const kinds = Object.fromEntries(SCENARIOS.map((scenario) => [scenario.id, scenario.kind]));
    expect(kinds).toMatchObject({
      "baseline-adult": "record",
      "multi-source-overlap": "record",
      "source-unavailable": "behavior",
      "consent-revoked": "behavior",
      "consent-partial": "behavior",
      "rate-limited": "behavior",
      "connect-cancelled": "session",
      "connect-failed": "session",
    });
    expect(new Set(SCENARIOS.map((scenario) => scenario.id)).size).toBe(SCENARIOS.length);
  });

  it("gives behavior scenarios their behavior and session scenarios their outcome and nothing else", () => {
    const behaviors = Object.fromEntries(SCENARIOS.map((scenario) => [scenario.id, scenario.behavior]));
    expect(behaviors).toMatchObject({
      "baseline-adult": null,
      "multi-source-overlap": null,
      "rate-limited": "rate_limited",
      "consent-revoked": "consent_revoked",
      "consent-partial": "consent_partial",
      "source-unavailable": "source_unavailable",
      "connect-cancelled": null,
      "connect-failed": null,
    });
    expect(findScenario("connect-cancelled")?.sessionOutcome).toEqual({ status: "cancelled", failureCode: null });
    expect(findScenario("connect-failed")?.sessionOutcome).toEqual({ status: "failed", failureCode: "source_unavailable" });
    for (const scenario of SCENARIOS.filter((candidate) => candidate.kind === "session")) {
      expect(scenario).toMatchObject({ subject: null, patientId: null, bundleId: null, sources: [], controls: [] });
      expect(() => scenarioBundle(scenario.id)).toThrow(/no patient/);
    }
    for (const scenario of patientScenarios) expect(scenario.sessionOutcome).toBeNull();
  });

  it("gives every patient scenario a well-formed unique subject, a patient and a bundle", () => {
    const subjects = patientScenarios.map((scenario) => scenario.subject);
    for (const subject of subjects) expect(subject).toMatch(/^u_[0-9A-Za-z]{24}$/);
    expect(new Set(subjects).size).toBe(subjects.length);
    for (const scenario of patientScenarios) {
      expect(scenarioBySubject(scenario.subject ?? "")).toBe(scenario);
      expect(scenarioByPatientId(scenario.patientId ?? "")).toBe(scenario);
      const bundle = scenarioBundle(scenario.id);
      expect(bundle.id).toBe(scenario.bundleId);
      expect(bundle.type).toBe("collection");
      const patient = resourcesOf(bundle).find((resource) => resource.id === scenario.patientId);
      expect(patient?.resourceType).toBe("Patient");
      expect(patient?.meta?.source).toBe(sourceUri(scenario.sources[0]?.providerId ?? ""));
    }
    expect(scenarioBySubject("u_000000000000000000000000")).toBeUndefined();
    expect(findScenario("no-such-scenario")).toBeUndefined();
  });

  it("grants consent-partial exactly medications and allergies and every other patient scenario all ten", () => {
    expect(findScenario("consent-partial")?.consentCategories).toEqual(["medications", "allergies"]);
    for (const scenario of patientScenarios.filter((candidate) => candidate.id !== "consent-partial")) {
      expect(scenario.consentCategories).toEqual([...CATEGORIES]);
    }
  });

  it("gives multi-source-overlap and source-unavailable two sources at distinct providers, the others one", () => {
    const providerIds = new Set(PROVIDERS.map((provider) => provider.id));
    for (const scenario of patientScenarios) {
      const expected = ["multi-source-overlap", "source-unavailable"].includes(scenario.id) ? 2 : 1;
      expect(scenario.sources, scenario.id).toHaveLength(expected);
      for (const source of scenario.sources) expect(providerIds.has(source.providerId)).toBe(true);
      expect(new Set(scenario.sources.map((source) => source.providerId)).size).toBe(expected);
    }
  });

  it("offers records.advance only where every source has later phases, and sensible controls", () => {
    for (const scenario of patientScenarios) {
      const advances = scenario.controls.includes("records.advance");
      for (const source of scenario.sources) expect(source.phases > 1, `${scenario.id}/${source.key}`).toBe(advances);
      expect(scenario.exercises.length).toBeGreaterThan(0);
      for (const exercise of scenario.exercises) expect(exercise).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    expect(findScenario("baseline-adult")?.controls).toEqual(
      expect.arrayContaining(["records.advance", "consent.revoke", "consent.expire", "source.fail"]),
    );
    expect(findScenario("multi-source-overlap")?.controls).toContain("records.advance");
    expect(findScenario("consent-revoked")?.controls).toContain("consent.revoke");
    expect(findScenario("source-unavailable")?.controls).toEqual(expect.arrayContaining(["source.fail", "records.advance"]));
  });
});

describe("scenario fixtures", () => {
  it("keeps resource ids and bundle ids unique across all scenarios and valid as FHIR ids", () => {
    const seen = new Map<string, string>();
    for (const scenario of patientScenarios) {
      for (const { label, resources } of everyPhaseOf(scenario)) {
        for (const resource of resources) {
          expect(resource.id).toMatch(/^[A-Za-z0-9\-.]{1,64}$/);
          const key = `${resource.resourceType}/${resource.id}`;
          const owner = seen.get(key);
          expect(owner === undefined || owner === scenario.id, `${key} in ${label} and ${owner}`).toBe(true);
          seen.set(key, scenario.id);
        }
      }
    }
    const bundleIds = patientScenarios.map((scenario) => scenario.bundleId);
    expect(new Set(bundleIds).size).toBe(bundleIds.length);
  });

  it("marks every resource with the meta.source of one of its scenario's sources and gives it a matching fullUrl", () => {
    for (const scenario of patientScenarios) {
      const uris = new Set(scenario.sources.map((source) => sourceUri(source.providerId)));
      const bundle = scenarioBundle(scenario.id);
      for (const entry of bundle.entry ?? []) {
        expect(uris.has(entry.resource?.meta?.source ?? ""), `${entry.fullUrl}`).toBe(true);
        expect(entry.fullUrl).toMatch(new RegExp(`^https://.+/${entry.resource?.resourceType}/${entry.resource?.id}$`));
      }
      const splitTotal = scenario.sources.reduce((sum, source) => sum + sourceResources(scenario.id, source.key, 0).length, 0);
      expect(splitTotal).toBe(bundle.entry?.length);
    }
  });

  it("resolves every reference within the bundle, and within each source at each phase", () => {
    for (const scenario of patientScenarios) {
      expect(unresolvedReferences(resourcesOf(scenarioBundle(scenario.id))), scenario.id).toEqual([]);
      for (const { label, resources } of everyPhaseOf(scenario)) expect(unresolvedReferences(resources), label).toEqual([]);
    }
  });

  it("holds no DocumentReference, Claim or ExplanationOfBenefit in any phase", () => {
    for (const scenario of patientScenarios) {
      for (const { label, resources } of everyPhaseOf(scenario)) {
        const excluded = resources.filter((resource) =>
          ["DocumentReference", "Claim", "ExplanationOfBenefit"].includes(resource.resourceType),
        );
        expect(excluded, label).toEqual([]);
      }
    }
  });

  it("writes clinical times with non-UTC offsets and keeps date-only fields as dates", () => {
    for (const scenario of patientScenarios) {
      const resources = resourcesOf(scenarioBundle(scenario.id));
      const times = ["effectiveDateTime", "issued", "authoredOn", "onsetDateTime", "start"].flatMap((name) =>
        resources.flatMap((resource) => valuesNamed(resource, name)),
      );
      const offsetTimes = times.filter((time) => /T.*[+-]\d\d:\d\d$/.test(time));
      expect(offsetTimes.length, scenario.id).toBeGreaterThan(5);
      expect(offsetTimes.some((time) => !/[+-]00:00$/.test(time))).toBe(true);
      expect(times.filter((time) => time.endsWith("Z")), scenario.id).toEqual([]);

      const patient = resources.find((resource) => resource.resourceType === "Patient");
      expect(patient && "birthDate" in patient ? patient.birthDate : undefined).toMatch(FHIR_DATE_PATTERN);
      const recordedDates = resources.flatMap((resource) =>
        resource.resourceType === "Condition" && resource.recordedDate ? [resource.recordedDate] : [],
      );
      expect(recordedDates.some((date) => FHIR_DATE_PATTERN.test(date)), scenario.id).toBe(true);
    }
    const baselineImmunizations = resourcesOf(scenarioBundle("baseline-adult")).flatMap((resource) =>
      resource.resourceType === "Immunization" && resource.occurrenceDateTime ? [resource.occurrenceDateTime] : [],
    );
    expect(baselineImmunizations.some((date) => FHIR_DATE_PATTERN.test(date))).toBe(true);
    expect(baselineImmunizations.some((date) => date.endsWith("+01:00"))).toBe(true);
  });

  it("serves copies, so callers cannot change the fixtures", () => {
    const bundle = scenarioBundle("baseline-adult");
    bundle.entry = [];
    expect(scenarioBundle("baseline-adult").entry?.length).toBeGreaterThan(0);
    const [first] = sourceResources("baseline-adult", "primary", 0);
    if (first) first.id = "changed";
    expect(sourceResources("baseline-adult", "primary", 0)[0]?.id).not.toBe("changed");
  });
});

describe("source phases", () => {
  it("adds, changes and deletes resources at every later phase of advancing scenarios", () => {
    expect(advancingScenarios.map((scenario) => scenario.id)).toEqual(
      expect.arrayContaining(["baseline-adult", "multi-source-overlap"]),
    );
    for (const scenario of advancingScenarios) {
      for (const source of scenario.sources) {
        for (let phase = 1; phase < source.phases; phase++) {
          const label = `${scenario.id}/${source.key}/phase ${phase}`;
          const byKey = (resources: FhirResource[]) =>
            new Map(resources.map((resource) => [`${resource.resourceType}/${resource.id}`, resource]));
          const before = byKey(sourceResources(scenario.id, source.key, phase - 1));
          const after = byKey(sourceResources(scenario.id, source.key, phase));
          const added = [...after.keys()].filter((key) => !before.has(key));
          const deleted = [...before.keys()].filter((key) => !after.has(key));
          const changed = [...after.keys()].filter(
            (key) => before.has(key) && JSON.stringify(before.get(key)) !== JSON.stringify(after.get(key)),
          );
          expect(added.length, `${label} adds`).toBeGreaterThan(0);
          expect(changed.length, `${label} changes`).toBeGreaterThan(0);
          expect(deleted.length, `${label} deletes`).toBeGreaterThan(0);
          for (const key of changed) {
            expect(Number(after.get(key)?.meta?.versionId), key).toBeGreaterThan(Number(before.get(key)?.meta?.versionId));
          }
        }
      }
    }
  });

  it("keeps phase 0 equal to the source's part of the Bundle", () => {
    const fromBundle = resourcesOf(scenarioBundle("multi-source-overlap")).filter(
      (resource) => resource.meta?.source === sourceUri("prairie-ridge"),
    );
    expect(sourceResources("multi-source-overlap", "secondary", 0)).toEqual(fromBundle);
  });

  it("rejects unknown scenarios, sources and phases", () => {
    expect(() => sourceResources("no-such-scenario", "primary", 0)).toThrow(/Unknown scenario/);
    expect(() => scenarioBundle("no-such-scenario")).toThrow(/Unknown scenario/);
    expect(() => sourceResources("connect-failed", "primary", 0)).toThrow();
    expect(() => sourceResources("baseline-adult", "secondary", 0)).toThrow(/no source secondary/);
    expect(() => sourceResources("baseline-adult", "primary", 3)).toThrow(/phases 0 to 2/);
    expect(() => sourceResources("baseline-adult", "primary", -1)).toThrow(/phases/);
    expect(() => sourceResources("baseline-adult", "primary", 0.5)).toThrow(/phases/);
    expect(() => sourceResources("consent-revoked", "primary", 1)).toThrow(/phases 0 to 0/);
  });
});

describe("FHIR R4 schema validity", () => {
  it("long-history: its repeated visits validate (every visit resource copied twice; the scenario is more of the same)", () => {
    for (const entry of longHistoryBundle(200).entry ?? []) {
      expect(validateFhirResource(entry.resource!).errors, entry.fullUrl).toEqual([]);
    }
  });

  it.each(patientScenarios.map((scenario) => [scenario.id, scenario] as const))(
    "%s: the Bundle and every resource of every source phase validate",
    (_, scenario) => {
      expect(validateFhirResource(scenarioBundle(scenario.id)).errors).toEqual([]);
      for (const { label, resources } of everyPhaseOf(scenario)) {
        for (const resource of resources) {
          const { errors } = validateFhirResource(resource);
          expect(errors, `${label} ${resource.resourceType}/${resource.id}`).toEqual([]);
        }
      }
    },
  );
});
