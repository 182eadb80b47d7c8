import { CONTEXT_TYPES } from "@/lib/fhir";
import type { Category } from "@/lib/records";

/**
 * The resource types the FHIR API serves, each behind the categories whose records it holds (a type is served for a
 * subject when the receipt and the key, or the credential, cover one of them); the context types are served when
 * any category is (they are what the records reference).
 */
export const RECORD_TYPES: Readonly<Record<string, readonly Category[]>> = {
  Patient: ["demographics"],
  Condition: ["conditions"],
  MedicationRequest: ["medications"],
  MedicationStatement: ["medications"],
  MedicationDispense: ["medications"],
  AllergyIntolerance: ["allergies"],
  Immunization: ["immunizations"],
  Observation: ["labs", "vitals"],
  Procedure: ["procedures"],
  DocumentReference: ["documents"],
  DiagnosticReport: ["documents", "labs"],
  Claim: ["claims"],
  ExplanationOfBenefit: ["claims"],
  Coverage: ["claims"],
};

export const SERVED_TYPES: readonly string[] = [...Object.keys(RECORD_TYPES), ...CONTEXT_TYPES];

export function isServedType(type: string): boolean {
  return SERVED_TYPES.includes(type);
}

/** The categories of `type` the authorization covers; for a context type, every covered category (any will do). */
export function coveredCategories(type: string, categories: readonly Category[]): Category[] {
  const behind = RECORD_TYPES[type];
  return behind ? categories.filter((category) => behind.includes(category)) : [...categories];
}

/** A token parameter: where in the resource its codes are (a JSON path PostgreSQL's jsonb_path_exists reads, lax). */
export type TokenPath = { kind: "codeable" | "code" | "coding"; path: string };

/**
 * The token search parameters (`code`, `category`, `status`, `clinical-status`) each type supports, where US Core
 * asks for them; a parameter a type does not list is not applied (and not echoed in the self link).
 */
export const TOKEN_PARAMS: Readonly<Record<string, Readonly<Record<string, TokenPath>>>> = {
  Patient: {},
  Condition: { code: { kind: "codeable", path: "$.code" }, category: { kind: "codeable", path: "$.category" }, "clinical-status": { kind: "codeable", path: "$.clinicalStatus" } },
  MedicationRequest: { code: { kind: "codeable", path: "$.medicationCodeableConcept" }, status: { kind: "code", path: "$.status" }, category: { kind: "codeable", path: "$.category" } },
  MedicationStatement: { code: { kind: "codeable", path: "$.medicationCodeableConcept" }, status: { kind: "code", path: "$.status" }, category: { kind: "codeable", path: "$.category" } },
  MedicationDispense: { code: { kind: "codeable", path: "$.medicationCodeableConcept" }, status: { kind: "code", path: "$.status" } },
  AllergyIntolerance: { code: { kind: "codeable", path: "$.code" }, category: { kind: "code", path: "$.category" }, "clinical-status": { kind: "codeable", path: "$.clinicalStatus" } },
  Immunization: { code: { kind: "codeable", path: "$.vaccineCode" }, "vaccine-code": { kind: "codeable", path: "$.vaccineCode" }, status: { kind: "code", path: "$.status" } },
  Observation: { code: { kind: "codeable", path: "$.code" }, category: { kind: "codeable", path: "$.category" }, status: { kind: "code", path: "$.status" } },
  Procedure: { code: { kind: "codeable", path: "$.code" }, status: { kind: "code", path: "$.status" }, category: { kind: "codeable", path: "$.category" } },
  DocumentReference: { code: { kind: "codeable", path: "$.type" }, type: { kind: "codeable", path: "$.type" }, category: { kind: "codeable", path: "$.category" }, status: { kind: "code", path: "$.status" } },
  DiagnosticReport: { code: { kind: "codeable", path: "$.code" }, category: { kind: "codeable", path: "$.category" }, status: { kind: "code", path: "$.status" } },
  Claim: { status: { kind: "code", path: "$.status" }, code: { kind: "codeable", path: "$.type" } },
  ExplanationOfBenefit: { status: { kind: "code", path: "$.status" }, code: { kind: "codeable", path: "$.type" } },
  Coverage: { status: { kind: "code", path: "$.status" }, code: { kind: "codeable", path: "$.type" } },
  Encounter: { status: { kind: "code", path: "$.status" }, code: { kind: "codeable", path: "$.type" }, class: { kind: "coding", path: "$.class" } },
  Practitioner: {},
  Organization: {},
  Location: {},
  Medication: { code: { kind: "codeable", path: "$.code" }, status: { kind: "code", path: "$.status" } },
};

/** Whether `date` applies: the record types (their clinical time); context resources have none the store orders by. */
export function hasDateParam(type: string): boolean {
  return type in RECORD_TYPES && type !== "Patient" && type !== "Coverage";
}

/**
 * `_include` parameters, as US Core names them (`Observation:patient`, `MedicationRequest:medication`, ...): the
 * fields of a resource holding the references the parameter follows. `*` follows every reference.
 */
export const INCLUDE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  patient: ["subject", "patient", "beneficiary"],
  subject: ["subject"],
  encounter: ["encounter", "context"],
  medication: ["medicationReference"],
  performer: ["performer", "actor"],
  requester: ["requester"],
  recorder: ["recorder"],
  asserter: ["asserter"],
  author: ["author"],
  organization: ["managingOrganization", "organization", "serviceProvider", "insurer", "provider"],
  "general-practitioner": ["generalPractitioner"],
  practitioner: ["practitioner", "individual"],
  location: ["location"],
  result: ["result"],
  "part-of": ["partOf"],
};
