import type { FhirResource } from "fhir/r4";
import type { z } from "zod";
import type { Category } from "@/lib/records";
import { syncState } from "./demo-sources";
import { withTestDataTag } from "@/lib/fhir";
import { DATA_NOTICE } from "./notice";
import type { PatientScenario } from "./scenario-manifest";
import { scenarioFacts } from "./scenario-facts";
import type { legacyRecordSchema } from "./schemas";

type LegacyRecord = z.infer<typeof legacyRecordSchema>;

// FHIR's TypeScript interfaces have no index signature, so they are widened to the schema's open JSON object.
function asJson(resource: FhirResource): { resourceType: string; [field: string]: unknown } {
  return resource as unknown as { resourceType: string; [field: string]: unknown };
}

/** GET /patients/{patientId}/records (legacy): the patient's raw FHIR resources grouped by category. */
export function buildLegacyRecord(scenario: PatientScenario, categories: readonly Category[]): LegacyRecord {
  const { resources } = scenarioFacts(scenario);
  const record: LegacyRecord["record"] = {};
  for (const category of categories) {
    record[category] = resources
      .filter((entry) => entry.categories.includes(category))
      .map((entry) => asJson(withTestDataTag(entry.resource)));
  }
  return {
    object: "demo_record",
    patient_id: scenario.patientId,
    scenario: scenario.id,
    categories: [...categories],
    ...syncState(scenario),
    record,
    notice: DATA_NOTICE,
  };
}
