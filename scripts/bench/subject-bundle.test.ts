import { describe, expect, it } from "vitest";
import { normalizeBundle } from "@/lib/records";
import { BENCH_SCENARIOS, bundleVariant, scenarioOf, subjectBundle } from "./subject-bundle";

const SOURCE = { sourceId: "src_benchsource0000000000000", sourceName: "Bench Health" };
const baseCount = (index: number) => normalizeBundle(subjectBundle(index, 0), SOURCE, "u_probe").facts.length;

describe("the bench's subject bundles", () => {
  it("normalize to exactly the scenario's records plus one per copy, for every scenario, with over a page of labs", () => {
    for (let index = 0; index < BENCH_SCENARIOS.length; index++) {
      const base = baseCount(index);
      const facts = normalizeBundle(subjectBundle(index, 100 - base), SOURCE, `u_subject${index}`).facts;
      expect(facts, scenarioOf(index)).toHaveLength(100);
      expect(new Set(facts.map((fact) => fact.record.recordId)).size).toBe(100);
      expect(facts.filter((fact) => fact.category === "labs").length).toBeGreaterThan(50);
      expect(new Set(facts.map((fact) => fact.category)).size).toBeGreaterThanOrEqual(7);
    }
  });

  it("differ between subjects of the same scenario and are the same for the same subject", () => {
    const n = BENCH_SCENARIOS.length;
    const keys = (index: number) => normalizeBundle(subjectBundle(index, 40), SOURCE, "u_same").facts.map((fact) => fact.factKey).sort();
    expect(keys(3)).toEqual(keys(3));
    expect(keys(3)).not.toEqual(keys(3 + n));
  });

  it("are equal for subjects of the same variant, and only for those", () => {
    const period = BENCH_SCENARIOS.length * 13 * 3;
    for (const index of [0, 5, 100]) {
      expect(bundleVariant(index + period)).toBe(bundleVariant(index));
      expect(subjectBundle(index + period, 40)).toEqual(subjectBundle(index, 40));
      expect(subjectBundle(index + 13, 40)).not.toEqual(subjectBundle(index, 40));
      expect(subjectBundle(index + 7, 40)).not.toEqual(subjectBundle(index, 40));
    }
  });
});
