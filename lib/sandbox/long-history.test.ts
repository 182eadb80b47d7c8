import type { FhirResource } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { normalizeBundle } from "@/lib/records";
import { LONG_HISTORY_RESOURCES, longHistoryBundle } from "./long-history";
import { findScenario, heldResources, scenarioBundle, scenarioByPatientId } from "./scenarios";

/** Every visit resource copied at least twice: the registered ten thousand are more rounds of the same copying. */
const resourcesOf = (size: number) => (longHistoryBundle(size).entry ?? []).map((entry) => entry.resource as FhirResource);

describe("longHistoryBundle", () => {
  it("holds the asked number of resources over ten years, and is the same every time", () => {
    const bundle = longHistoryBundle(3_000);
    expect(bundle.entry).toHaveLength(3_000);
    expect(longHistoryBundle(3_000)).toEqual(bundle);
    const times = bundle.entry!.flatMap((entry) => (entry.resource?.resourceType === "Encounter" && entry.resource.period?.start ? [Date.parse(entry.resource.period.start)] : []));
    const years = (Math.max(...times) - Math.min(...times)) / (365 * 24 * 60 * 60 * 1000);
    // Ten years of repeats before the scenario's own visits, which span a few years themselves.
    expect(years).toBeGreaterThan(10);
    expect(years).toBeLessThan(13);
  });

  it("every repeated visit is a fact of its own: each copy normalizes to one more record", () => {
    const source = { sourceId: "src_a", sourceName: "Riverbend Health" };
    const base = normalizeBundle(scenarioBundle("baseline-adult"), source, "u_probe").facts.length;
    const size = 2_000;
    const { facts } = normalizeBundle(longHistoryBundle(size), source, "u_probe");
    const keys = new Set(facts.map((fact) => `${fact.category}|${fact.factKey}`));
    expect(keys.size).toBe(facts.length);
    const copies = size - (scenarioBundle("baseline-adult").entry ?? []).length;
    // Encounters are not records of their own; labs, vital signs and procedures are, one per copy.
    expect(facts.length).toBeGreaterThan(base + copies * 0.75);
    const categories = new Set(facts.map((fact) => fact.category));
    for (const category of ["labs", "vitals", "procedures"] as const) expect(categories.has(category)).toBe(true);
  });

  it("copies resolve every reference, times keep their offsets and dates stay dates (scenarios.test.ts validates them)", () => {
    const resources = resourcesOf(200);
    const present = new Set(resources.map((resource) => `${resource.resourceType}/${resource.id}`));
    const text = JSON.stringify(resources);
    const references = [...text.matchAll(/"reference":"([^"]+)"/g)].map((match) => match[1]!);
    expect(references.filter((reference) => !present.has(reference))).toEqual([]);
    const times = [...text.matchAll(/"(?:effectiveDateTime|issued|start|end|performedDateTime)":"([^"]+)"/g)].map((match) => match[1]!);
    expect(times.filter((time) => time.endsWith("Z"))).toEqual([]);
    expect(times.filter((time) => /T.*[+-]\d\d:\d\d$/.test(time)).length).toBeGreaterThan(100);
  });
});

describe("the long-history scenario", () => {
  it("is a patient of its own at one health system with ten thousand resources, none shared with baseline-adult", () => {
    const scenario = findScenario("long-history")!;
    expect(scenarioByPatientId("long-history-patient")).toBe(scenario);
    const resources = heldResources("long-history", "primary", 0);
    expect(resources).toHaveLength(LONG_HISTORY_RESOURCES);
    const ids = new Set(resources.map((resource) => `${resource.resourceType}/${resource.id}`));
    expect(ids.size).toBe(resources.length);
    const baseline = (scenarioBundle("baseline-adult").entry ?? []).map((entry) => `${entry.resource?.resourceType}/${entry.resource?.id}`);
    expect(baseline.filter((id) => ids.has(id))).toEqual([]);
    expect(resources.find((resource) => resource.resourceType === "Patient")?.id).toBe("long-history-patient");
  });
});
