import type { FhirResource } from "fhir/r4";
import { type Category, mergeFacts, type NormalizedFact, normalizeResources } from "@/lib/records";
import { sourceResources } from "@/lib/sandbox";
import { demoSources } from "./demo-sources";
import type { PatientScenario } from "./scenario-manifest";
import { processState } from "@/lib/process-state";

export type ScenarioFacts = {
  /** Facts of the reachable sources, merged across sources, in category then record order. */
  merged: NormalizedFact[];
  /** The raw FHIR resources of the reachable sources, each with the categories the normalizer put it in. */
  resources: { resource: FhirResource; categories: Category[] }[];
};

const cache = processState("demo.scenario-facts", () => new Map<string, ScenarioFacts>());

/** Normalizes a scenario's reachable sources at phase 0. Fixtures are fixed, so each scenario is normalized once. */
export function scenarioFacts(scenario: PatientScenario): ScenarioFacts {
  const cached = cache.get(scenario.id);
  if (cached) return cached;

  const perSource: NormalizedFact[][] = [];
  const resources: ScenarioFacts["resources"] = [];
  for (const source of demoSources(scenario).filter((candidate) => candidate.available)) {
    const sourceFhir = sourceResources(scenario.id, source.key, 0);
    const { facts } = normalizeResources(sourceFhir, { sourceId: source.sourceId, sourceName: source.sourceName }, scenario.subject);
    perSource.push(facts);
    const categoriesOf = categoriesByResource(facts);
    for (const resource of sourceFhir) {
      resources.push({ resource, categories: categoriesOf.get(`${resource.resourceType}/${resource.id}`) ?? [] });
    }
  }
  const result = { merged: mergeFacts(perSource), resources };
  cache.set(scenario.id, result);
  return result;
}

/** Which categories each source resource fed, read from the facts' provenance (so Observation splits into labs and
 *  vitals exactly as the normalizer decided). Context resources such as Medication feed none. */
function categoriesByResource(facts: NormalizedFact[]): Map<string, Category[]> {
  const byResource = new Map<string, Category[]>();
  for (const fact of facts) {
    for (const ref of fact.record.sources) {
      const key = `${ref.resourceType}/${ref.resourceId}`;
      const categories = byResource.get(key) ?? [];
      if (!categories.includes(fact.category)) categories.push(fact.category);
      byResource.set(key, categories);
    }
  }
  return byResource;
}
