import type { Bundle } from "fhir/r4";
import { referencesAny, searchsetBundle, withTestDataTag } from "@/lib/fhir";
import { ApiError } from "@/lib/http";
import { catalogEntries, searchableTypes, type CatalogEntry } from "./fhir-catalog";
import { demoPath } from "./links";
import { patientScenarioBySubject } from "./patients";
import { DEFAULT_SCENARIO_ID, type PatientScenario } from "./scenario-manifest";

/**
 * GET /fhir/{resourceType}: a searchset across the scenario Bundles. With `patient` (a demo subject, a FHIR
 * Patient id, or `Patient/{id}`) the patient's resources of the type; without it, every resource of the type in
 * the baseline-adult Bundle, including resources that reference no patient. Other search parameters are ignored,
 * as FHIR's lenient handling allows; the self link shows only the parameters applied.
 */
export function searchDemoFhir(resourceType: string, patient: string | null, origin: string): Bundle {
  if (!searchableTypes().includes(resourceType)) {
    throw new ApiError("not_found", `The demo FHIR server does not search ${resourceType}; ${demoPath("fhir", "metadata")} lists the types.`);
  }
  const ofType = catalogEntries().filter((entry) => entry.resource.resourceType === resourceType);
  const matches = patient === null
    ? ofType.filter((entry) => entry.scenario.id === DEFAULT_SCENARIO_ID)
    : ofType.filter(belongsTo(patientFilter(patient)));

  const self = new URL(origin + demoPath("fhir", resourceType));
  if (patient !== null) self.searchParams.set("patient", patient);
  return withTestDataTag(searchsetBundle({ self, baseUrl: origin + demoPath("fhir"), matches: matches.map((entry) => entry.resource) }));
}

type PatientFilter = { scenario: PatientScenario; patientIds: Set<string> };

/**
 * A subject stands for the person, so it matches every Patient resource of its scenario Bundle (one per source in
 * two-source scenarios); a FHIR Patient id matches that Patient alone, as FHIR's `patient` parameter does.
 */
function patientFilter(patient: string): PatientFilter {
  const id = patient.startsWith("Patient/") ? patient.slice("Patient/".length) : patient;
  const bySubject = patientScenarioBySubject(id);
  if (bySubject) {
    const patients = catalogEntries().filter(
      (entry) => entry.scenario.id === bySubject.id && entry.resource.resourceType === "Patient",
    );
    return { scenario: bySubject, patientIds: new Set(patients.map((entry) => entry.resource.id ?? "")) };
  }
  const patientEntry = catalogEntries().find((entry) => entry.resource.resourceType === "Patient" && entry.resource.id === id);
  if (!patientEntry) throw new ApiError("not_found", `No synthetic patient ${patient}; GET ${demoPath("patients")} lists them.`);
  return { scenario: patientEntry.scenario, patientIds: new Set([id]) };
}

/** The Patient resources themselves, and every resource of the same Bundle that references one of them. */
function belongsTo({ scenario, patientIds }: PatientFilter): (entry: CatalogEntry) => boolean {
  const sameBundle = catalogEntries().filter((entry) => entry.scenario.id === scenario.id);
  const targets = new Set<string>();
  for (const entry of sameBundle) {
    if (entry.resource.resourceType !== "Patient" || !patientIds.has(entry.resource.id ?? "")) continue;
    targets.add(`Patient/${entry.resource.id}`);
    if (entry.fullUrl) targets.add(entry.fullUrl);
  }
  const isTarget = (reference: string) =>
    targets.has(reference) || [...patientIds].some((id) => reference.endsWith(`/Patient/${id}`));
  return (entry) =>
    entry.scenario.id === scenario.id &&
    ((entry.resource.resourceType === "Patient" && patientIds.has(entry.resource.id ?? "")) ||
      referencesAny(entry.resource, isTarget));
}
