import type { FhirResource, Patient } from "fhir/r4";
import { resourceDisplayName } from "@/lib/records";
import { SCENARIOS, sourceOutline } from "@/lib/sandbox";
import { processState } from "@/lib/process-state";

/**
 * One synthetic patient of a health system: a scenario source whose provider is that system. `patientKey`
 * (`{scenarioId}.{sourceKey}`) names it inside this app; `fhirPatientId` is what the FHIR API and the token's
 * `patient` call it.
 */
export type EhrPatient = {
  providerId: string;
  patientKey: string;
  scenarioId: string;
  sourceKey: string;
  fhirPatientId: string;
  displayName: string;
  birthDate: string | null;
  /** What the picker tells people apart by, besides name and birth date: administrative sex and home town. */
  gender: string | null;
  city: string | null;
  state: string | null;
  /** How many phases the source has; the current one is kept per patient (patient-phase.ts). */
  phases: number;
};

function patientOf(resources: readonly FhirResource[], scenarioId: string, sourceKey: string): Patient {
  const patient = resources.find((resource): resource is Patient => resource.resourceType === "Patient");
  if (!patient?.id) throw new Error(`Source ${sourceKey} of scenario ${scenarioId} has no Patient resource`);
  return patient;
}

function allPatients(): EhrPatient[] {
  return processState("ehr.patients", () => SCENARIOS.flatMap((scenario) =>
    scenario.sources.map((source) => {
      const patient = patientOf(sourceOutline(scenario.id, source.key, 0), scenario.id, source.key);
      return {
        providerId: source.providerId,
        patientKey: `${scenario.id}.${source.key}`,
        scenarioId: scenario.id,
        sourceKey: source.key,
        fhirPatientId: patient.id as string,
        displayName: resourceDisplayName(patient as unknown as Record<string, unknown>) ?? (patient.id as string),
        birthDate: patient.birthDate ?? null,
        gender: patient.gender ?? null,
        city: patient.address?.[0]?.city ?? null,
        state: patient.address?.[0]?.state ?? null,
        phases: source.phases,
      };
    }),
  ));
}

/** The health system's synthetic patients, in manifest order. */
export function ehrPatients(providerId: string): EhrPatient[] {
  return allPatients().filter((patient) => patient.providerId === providerId);
}

/**
 * The patient a key names: a manifest patient (`{scenarioId}.{sourceKey}`, the one the authorization page offers and
 * every browser sign-in shares), or a simulated instance of one (`{scenarioId}.{sourceKey}.{instance}`, what the
 * sandbox simulation signs in as, `instance` being the synthetic Chartkey patient's id). An instance serves the same
 * fixtures but keeps its own phase, faults, codes and tokens, so one application's `records.advance` never moves
 * another's records.
 */
export function findEhrPatient(providerId: string, patientKey: string): EhrPatient | undefined {
  const [scenarioId, sourceKey, instance, ...rest] = patientKey.split(".");
  if (rest.length > 0 || instance === "" || (instance !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(instance))) return undefined;
  const base = allPatients().find((patient) => patient.providerId === providerId && patient.patientKey === `${scenarioId}.${sourceKey}`);
  if (!base || instance === undefined) return base;
  return { ...base, patientKey };
}

/** The key of a simulated instance of a manifest patient (see findEhrPatient). */
export function simulatedEhrPatientKey(scenarioId: string, sourceKey: string, instance: string): string {
  return `${scenarioId}.${sourceKey}.${instance}`;
}
