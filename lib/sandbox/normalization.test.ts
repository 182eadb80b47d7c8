import { describe, expect, it } from "vitest";
import { CATEGORIES, type Category, ENCOUNTER_SKIP, mergeFacts, type NormalizedFact, NORMALIZERS, normalizeResources } from "@/lib/records";
import { PROVIDERS, SCENARIOS, sourceResources, type Scenario } from "./scenarios";

// Resource types the normalizer maps to a category (its own list); anything else (Encounter, Medication, ...) is
// context it may skip.
const MAPPED_TYPES = new Set(Object.keys(NORMALIZERS));

const EMPTY_IN_DEMO: Category[] = ["documents", "claims"];

function normalizeScenario(scenario: Scenario, phaseOf: (phases: number) => number) {
  const perSource = scenario.sources.map((source) => {
    const provider = PROVIDERS.find((candidate) => candidate.id === source.providerId);
    return normalizeResources(
      sourceResources(scenario.id, source.key, phaseOf(source.phases)),
      { sourceId: `src_${source.providerId}`, sourceName: provider?.name ?? source.providerId },
      scenario.subject ?? "",
    );
  });
  return {
    merged: mergeFacts(perSource.map((result) => result.facts)),
    skipped: perSource.flatMap((result) => result.skipped),
  };
}

function countByCategory(facts: NormalizedFact[]): Record<Category, number> {
  const counts = Object.fromEntries(CATEGORIES.map((category) => [category, 0])) as Record<Category, number>;
  for (const fact of facts) counts[fact.category] += 1;
  return counts;
}

// long-history repeats baseline-adult's visits (long-history.test.ts normalizes a history of its own).
const patientScenarios = SCENARIOS.filter((scenario) => scenario.kind !== "session" && scenario.id !== "long-history");

describe("normalizing the scenario fixtures", () => {
  it.each(patientScenarios.map((scenario) => [scenario.id, scenario] as const))(
    "%s yields records in every served category at every phase, skipping no mapped resource",
    (_, scenario) => {
      const phases = Math.max(...scenario.sources.map((source) => source.phases));
      for (let phase = 0; phase < phases; phase++) {
        const { merged, skipped } = normalizeScenario(scenario, (sourcePhases) => Math.min(phase, sourcePhases - 1));
        // Encounters are always reported skips: the records that reference them carry their date, type and location.
        const unexpected = skipped.filter((resource) => MAPPED_TYPES.has(resource.resourceType) && resource.reason !== ENCOUNTER_SKIP);
        expect(unexpected, `phase ${phase}`).toEqual([]);
        const counts = countByCategory(merged);
        for (const category of CATEGORIES) {
          if (EMPTY_IN_DEMO.includes(category)) expect(counts[category], `${category} phase ${phase}`).toBe(0);
          // One patient has one demographics record, however many sources describe them.
          else if (category === "demographics") expect(counts[category], `${category} phase ${phase}`).toBe(1);
          else expect(counts[category], `${category} phase ${phase}`).toBeGreaterThanOrEqual(2);
        }
      }
    },
  );

  it.each(
    patientScenarios
      .filter((scenario) => scenario.sources.length === 2)
      .map((scenario) => [scenario.id, scenario] as const),
  )("%s merges facts both sources report into records listing both", (_, scenario) => {
    const { merged } = normalizeScenario(scenario, () => 0);
    const fromBoth = merged.filter((fact) => new Set(fact.record.sources.map((source) => source.sourceId)).size === 2);
    expect(fromBoth.length).toBeGreaterThanOrEqual(2);
    expect(new Set(fromBoth.map((fact) => fact.category)).size).toBeGreaterThanOrEqual(2);
  });
});
