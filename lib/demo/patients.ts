import type { Patient } from "fhir/r4";
import type { z } from "zod";
import { ApiError } from "@/lib/http";
import { resourceDisplayName } from "@/lib/records";
import { scenarioByPatientId, scenarioBySubject, scenarioResource } from "@/lib/sandbox";
import { demoPath } from "./links";
import { hasPatient, patientLinks, type PatientScenario } from "./scenario-manifest";
import type { patientSchema } from "./schemas";

export function patientScenarioByPatientId(patientId: string): PatientScenario | undefined {
  const scenario = scenarioByPatientId(patientId);
  return scenario && hasPatient(scenario) ? scenario : undefined;
}

export function patientScenarioBySubject(subject: string): PatientScenario | undefined {
  const scenario = scenarioBySubject(subject);
  return scenario && hasPatient(scenario) ? scenario : undefined;
}

export function patientOr404(patientId: string): PatientScenario {
  const scenario = patientScenarioByPatientId(patientId);
  if (!scenario) throw new ApiError("not_found", `No synthetic patient ${patientId}; GET ${demoPath("patients")} lists them.`);
  return scenario;
}

export function subjectOr404(subject: string): PatientScenario {
  const scenario = patientScenarioBySubject(subject);
  if (!scenario) throw new ApiError("not_found", `No demo subject ${subject}; GET ${demoPath("patients")} lists them.`);
  return scenario;
}

/** The scenario's FHIR Patient resource. */
export function patientResource(scenario: PatientScenario): Patient {
  const found = scenarioResource(scenario.id, "Patient", scenario.patientId);
  if (!found) throw new Error(`Scenario ${scenario.id} has no Patient ${scenario.patientId} in its Bundle`);
  return found as Patient;
}

export function presentPatient(scenario: PatientScenario): z.infer<typeof patientSchema> {
  const patient = patientResource(scenario);
  const { patient: self, ...links } = patientLinks(scenario);
  return {
    patient_id: scenario.patientId,
    subject: scenario.subject,
    scenario: scenario.id,
    name: resourceDisplayName(patient as unknown as Record<string, unknown>),
    birth_date: patient.birthDate ?? null,
    gender: patient.gender ?? null,
    links: { self, scenario: demoPath("scenarios", scenario.id), ...links },
  };
}
