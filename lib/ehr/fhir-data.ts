import type { FhirResource } from "fhir/r4";
import { NORMALIZERS } from "@/lib/records";
import { sourceResources } from "@/lib/sandbox";
import { currentEhrPatientPhase } from "./patient-phase";
import { ehrPatients, type EhrPatient } from "./patients";
import { processState } from "@/lib/process-state";

/** Everything the health system holds for the patient: that source's resources at the patient's current phase. */
export async function patientResources(patient: EhrPatient): Promise<FhirResource[]> {
  return sourceResources(patient.scenarioId, patient.sourceKey, await currentEhrPatientPhase(patient));
}

/**
 * The types the health system searches: every type its patients hold at any phase, plus every type the records
 * import reads (the normalizers'), which search as empty where a patient has none, as on a real server.
 */
export function searchableTypes(providerId: string): string[] {
  const typesByProvider = processState("ehr.searchable-types", () => new Map<string, string[]>());
  const cached = typesByProvider.get(providerId);
  if (cached) return cached;
  const held = ehrPatients(providerId).flatMap((patient) =>
    Array.from({ length: patient.phases }, (_, phase) => sourceResources(patient.scenarioId, patient.sourceKey, phase).map((resource) => resource.resourceType)).flat(),
  );
  const types = [...new Set([...held, ...Object.keys(NORMALIZERS)])].sort();
  typesByProvider.set(providerId, types);
  return types;
}
