import { describe, expect, it } from "vitest";
import { normalizeBundle } from "@/lib/records";
import { longHistoryBundle } from "./long-history";
import { scenarioBundle } from "./scenarios";

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
});
