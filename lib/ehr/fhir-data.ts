import type { FhirResource } from "fhir/r4";
import { withTestDataTag } from "@/lib/fhir";
import { JsonText } from "@/lib/http";
import { NORMALIZERS } from "@/lib/records";
import { heldResources, sourceOutline } from "@/lib/sandbox";
import { currentEhrPatientPhase } from "./patient-phase";
import { ehrPatients, type EhrPatient } from "./patients";
import { processState } from "@/lib/process-state";

/**
 * Everything the health system holds for the patient: that source's resources at the patient's current phase. Shared
 * and read only (each search page serves a slice of it, so a copy per request would cost the whole record per page).
 */
export async function patientResources(patient: EhrPatient): Promise<readonly FhirResource[]> {
  return heldResources(patient.scenarioId, patient.sourceKey, await currentEhrPatientPhase(patient));
}

/**
 * The patient's resources of one type, in the order held. Grouped once per held list (which is shared and never
 * changes), not filtered from the whole record on every page: a 10,000-resource history is searched page by page.
 */
export async function patientResourcesOfType(patient: EhrPatient, resourceType: string): Promise<readonly FhirResource[]> {
  const held = await patientResources(patient);
  const byHeld = processState("ehr.resources-by-type", () => new WeakMap<readonly FhirResource[], Map<string, FhirResource[]>>());
  let byType = byHeld.get(held);
  if (!byType) {
    byType = new Map();
    for (const resource of held) {
      const group = byType.get(resource.resourceType);
      if (group) group.push(resource);
      else byType.set(resource.resourceType, [resource]);
    }
    byHeld.set(held, byType);
  }
  return byType.get(resourceType) ?? [];
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
    Array.from({ length: patient.phases }, (_, phase) => sourceOutline(patient.scenarioId, patient.sourceKey, phase).map((resource) => resource.resourceType)).flat(),
  );
  const types = [...new Set([...held, ...Object.keys(NORMALIZERS)])].sort();
  typesByProvider.set(providerId, types);
  return types;
}

/**
 * A held resource as the health system serves it (tagged as test data), serialized once, as a FHIR server stores
 * the text it serves: held resources are shared and never change, and a ten-year history is served a thousand
 * resources a page, each page otherwise one string of megabytes built again for every search.
 */
export function servedResourceText(resource: FhirResource): JsonText {
  const texts = processState("ehr.served-resource-text", () => new WeakMap<FhirResource, JsonText>());
  let text = texts.get(resource);
  if (!text) {
    text = new JsonText(JSON.stringify(withTestDataTag(resource)));
    texts.set(resource, text);
  }
  return text;
}
