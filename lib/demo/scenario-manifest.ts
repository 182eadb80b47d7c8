import { findScenario, type Scenario, SCENARIOS } from "@/lib/sandbox";
import { ApiError } from "@/lib/http";
import { demoPath } from "./links";
import type { scenarioSchema } from "./schemas";
import type { z } from "zod";

/** The scenario every request that names none uses (docs/contract.md, Scenarios: the demo default). */
export const DEFAULT_SCENARIO_ID = "baseline-adult";

export function defaultScenario(): Scenario {
  const scenario = findScenario(DEFAULT_SCENARIO_ID);
  if (!scenario) throw new Error(`The scenario manifest lacks ${DEFAULT_SCENARIO_ID}`);
  return scenario;
}

/** A scenario that has a synthetic patient (record and behavior scenarios). */
export type PatientScenario = Scenario & { subject: string; patientId: string; bundleId: string };

export function hasPatient(scenario: Scenario): scenario is PatientScenario {
  return scenario.subject !== null && scenario.patientId !== null && scenario.bundleId !== null;
}

export function patientScenarios(): PatientScenario[] {
  return SCENARIOS.filter(hasPatient);
}

export function scenarioOr404(id: string): Scenario {
  const scenario = findScenario(id);
  if (!scenario) throw new ApiError("not_found", `No demo scenario ${id}; GET ${demoPath("scenarios")} lists them.`);
  return scenario;
}

/** Links from a synthetic patient's scenario to everything the demo serves about the patient. */
export function patientLinks(scenario: PatientScenario) {
  return {
    patient: demoPath("patients", scenario.patientId),
    records: demoPath("users", scenario.subject, "records"),
    legacy_records: demoPath("patients", scenario.patientId, "records"),
    fhir_patient: demoPath("fhir", "Patient", scenario.patientId),
    fhir_bundle: demoPath("fhir", "Bundle", scenario.bundleId),
  };
}

export function scenarioLinks(scenario: Scenario): Record<string, string> {
  return {
    self: demoPath("scenarios", scenario.id),
    connect: demoPath("connect", "sessions"),
    ...(hasPatient(scenario) ? patientLinks(scenario) : {}),
  };
}

/** A manifest entry: identifiers, behaviour and links, never clinical data. */
export function presentScenario(scenario: Scenario): z.infer<typeof scenarioSchema> {
  return {
    id: scenario.id,
    kind: scenario.kind,
    title: scenario.title,
    description: scenario.description,
    subject: scenario.subject,
    patient_id: scenario.patientId,
    bundle_id: scenario.bundleId,
    behavior: scenario.behavior,
    session_outcome: scenario.sessionOutcome
      ? { status: scenario.sessionOutcome.status, failure_code: scenario.sessionOutcome.failureCode }
      : null,
    consent_categories: [...scenario.consentCategories],
    sources: scenario.sources.map((source) => ({ key: source.key, provider_id: source.providerId, phases: source.phases })),
    controls: [...scenario.controls],
    exercises: [...scenario.exercises],
    links: scenarioLinks(scenario),
  };
}
