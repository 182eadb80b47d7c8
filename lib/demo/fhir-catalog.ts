import type { Bundle, FhirResource } from "fhir/r4";
import { NORMALIZERS } from "@/lib/records";
import { scenarioBundle } from "@/lib/sandbox";
import { patientScenarios, type PatientScenario } from "./scenario-manifest";
import { processState } from "@/lib/process-state";

export type CatalogEntry = { scenario: PatientScenario; resource: FhirResource; fullUrl: string | null };

/** Every resource of every scenario Bundle, in manifest then Bundle order. */
export function catalogEntries(): CatalogEntry[] {
  return processState("demo.fhir-catalog", () => patientScenarios().flatMap((scenario) =>
    (scenarioBundle(scenario.id).entry ?? []).flatMap((entry) =>
      entry.resource ? [{ scenario, resource: entry.resource, fullUrl: entry.fullUrl ?? null }] : [],
    ),
  ));
}

/**
 * The resource types the demo FHIR server searches: every type in a scenario Bundle, plus the types that feed the
 * record categories even where the fixtures hold none (DocumentReference, Claim, ...), which search as empty.
 */
export function searchableTypes(): readonly string[] {
  return processState("demo.searchable-types", () => {
    const present = catalogEntries().map((entry) => entry.resource.resourceType);
    return Object.freeze([...new Set([...present, ...Object.keys(NORMALIZERS)])].sort());
  });
}

/** One resource from any scenario Bundle; `Bundle` with a scenario bundle id is that whole Bundle. */
export function findFhirResource(resourceType: string, id: string): FhirResource | Bundle | undefined {
  if (resourceType === "Bundle") {
    const scenario = patientScenarios().find((candidate) => candidate.bundleId === id);
    return scenario ? scenarioBundle(scenario.id) : undefined;
  }
  return catalogEntries().find((entry) => entry.resource.resourceType === resourceType && entry.resource.id === id)?.resource;
}
