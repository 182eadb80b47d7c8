import type { Category, NormalizedRecord } from "@/lib/records";
import { demoSources, syncState } from "./demo-sources";
import { DATA_NOTICE } from "./notice";
import type { PatientScenario } from "./scenario-manifest";
import { scenarioFacts } from "./scenario-facts";
import type { NormalizedRecordResponse } from "./schemas";

/** Demo record responses carry schema version 2 (docs/contract.md, Versioning). */
export const DEMO_SCHEMA_VERSION = 2;

/** GET /users/{subject}/records: the platform-shaped snapshot of the requested categories, one section each. */
export function buildHealthRecord(scenario: PatientScenario, categories: readonly Category[]): NormalizedRecordResponse {
  const facts = scenarioFacts(scenario).merged;
  const sections: Partial<Record<Category, { records: NormalizedRecord[] }>> = {};
  for (const category of categories) {
    sections[category] = { records: facts.filter((fact) => fact.category === category).map((fact) => fact.record) };
  }
  return {
    subject: scenario.subject,
    scenario: scenario.id,
    ...syncState(scenario),
    consent: { status: "active", categories: [...scenario.consentCategories] },
    sources: demoSources(scenario).map((source) => ({
      sourceId: source.sourceId,
      sourceName: source.sourceName,
      providerId: source.providerId,
      status: source.available ? "synced" : "unavailable",
    })),
    sections: sections as NormalizedRecordResponse["sections"],
    meta: { schemaVersion: DEMO_SCHEMA_VERSION },
    notice: DATA_NOTICE,
  };
}
