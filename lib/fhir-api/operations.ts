import { z } from "zod";
import { defineOperation } from "@/lib/api";
import { FHIR_JSON } from "@/lib/fhir";
import { PLATFORM_FHIR_PROFILE } from "./profile";
import { fhirCapabilitySchema, fhirResourceSchema, fhirSearchsetSchema } from "./schemas";
import { SERVED_TYPES } from "./served-types";

const EXAMPLE_SUBJECT = "u-4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd";
const ERRORS_NOTE = " Errors are OperationOutcome resources (application/fhir+json) whose issue.details carries the error code.";

const subjectParams = z.object({
  subject: z.string().describe("The subject, whose id is the Patient id (u-..., or the platform's u_... spelling).").meta({ example: EXAMPLE_SUBJECT }),
});
const resourceTypeParam = z.string().describe(`One of ${SERVED_TYPES.join(", ")}.`).meta({ example: "Observation" });

const searchQuery = z.object({
  patient: z.string().optional().describe("The subject (u-..., Patient/u-...). Required with an application key; a delegated credential reads its own subject.").meta({ example: EXAMPLE_SUBJECT }),
  _id: z.string().optional().describe("Resource ids, comma-separated."),
  _count: z.string().optional().describe("Page size, default 50, at most 200 (a larger value is served as 200); 0 answers the total only.").meta({ example: "50" }),
  _lastUpdated: z.string().optional().describe("When the resource last changed here, with a prefix (ge2026-01-01); repeat for a range."),
  date: z.string().optional().describe("The record's clinical time, with a prefix (ge2023, lt2024-06-01); repeat for a range."),
  category: z.string().optional().describe("Token: system|code or code (Observation laboratory, vital-signs; Condition problem-list-item; ...)."),
  code: z.string().optional().describe("Token: system|code or code (LOINC, SNOMED CT, RxNorm, CVX ...)."),
  status: z.string().optional().describe("Token: the resource's status code."),
  _include: z.string().optional().describe("Type:parameter (Observation:patient, MedicationRequest:medication, Encounter:*...); repeatable.").meta({ example: "Observation:encounter" }),
  _cursor: z.string().optional().describe("From a next link; pass it back unchanged with the same search (an edited cursor is refused)."),
});

export const getFhirMetadataOperation = defineOperation({
  profile: PLATFORM_FHIR_PROFILE,
  method: "GET",
  path: "/fhir/metadata",
  operationId: "getFhirMetadata",
  tag: "FHIR",
  summary: "The FHIR API's CapabilityStatement",
  description: "The types, search parameters, includes and operations served, instantiating US Core's server CapabilityStatement." + ERRORS_NOTE,
  auth: "key",
  agentOperation: "get_health_record",
  success: { status: 200, description: "The CapabilityStatement.", schema: fhirCapabilitySchema, contentType: FHIR_JSON },
  errors: [],
});

export const readFhirPatientOperation = defineOperation({
  profile: PLATFORM_FHIR_PROFILE,
  method: "GET",
  path: "/fhir/Patient/{subject}",
  operationId: "readFhirPatient",
  tag: "FHIR",
  summary: "A subject's Patient resource",
  description: "The Patient its first health system sent, when the subject shares demographics; 404 otherwise." + ERRORS_NOTE,
  auth: "key",
  agentOperation: "get_health_record",
  params: subjectParams,
  success: { status: 200, description: "The Patient.", schema: fhirResourceSchema, contentType: FHIR_JSON },
  errors: ["not_found", "subject_mismatch"],
});

export const getFhirPatientEverythingOperation = defineOperation({
  profile: PLATFORM_FHIR_PROFILE,
  method: "GET",
  path: "/fhir/Patient/{subject}/$everything",
  operationId: "getFhirPatientEverything",
  tag: "FHIR",
  summary: "Everything the consent shares of a subject",
  description:
    "Patient/$everything: the Patient, every record's resource and the context resources they reference (Encounter, Practitioner, " +
    "Organization, Location, Medication), as a paged searchset. _type narrows the types, _since to what changed since an instant." + ERRORS_NOTE,
  auth: "key",
  agentOperation: "get_health_record",
  params: subjectParams,
  query: z.object({
    _type: z.string().optional().describe("Comma-separated resource types.").meta({ example: "Observation,Condition" }),
    _since: z.string().optional().describe("Only resources changed at or after this instant.").meta({ example: "2026-11-01T00:00:00Z" }),
    _count: searchQuery.shape._count,
    _cursor: searchQuery.shape._cursor,
  }),
  success: { status: 200, description: "A searchset page.", schema: fhirSearchsetSchema, contentType: FHIR_JSON },
  errors: ["not_found", "subject_mismatch", "invalid_query", "invalid_cursor"],
});

export const searchFhirOperation = defineOperation({
  profile: PLATFORM_FHIR_PROFILE,
  method: "GET",
  path: "/fhir/{resourceType}",
  operationId: "searchFhir",
  tag: "FHIR",
  summary: "Search one resource type of a subject",
  description:
    "A searchset Bundle of the subject's resources of the type, as its health systems sent them (after the merge of sources). A type " +
    "outside the consent, the allowlist or the credential answers an empty Bundle with an OperationOutcome entry (search mode outcome) " +
    "saying why. Parameters a type does not support are ignored and left out of the self link." + ERRORS_NOTE,
  auth: "key",
  agentOperation: "get_health_record",
  params: z.object({ resourceType: resourceTypeParam }),
  query: searchQuery,
  success: { status: 200, description: "A searchset page.", schema: fhirSearchsetSchema, contentType: FHIR_JSON },
  errors: ["not_found", "subject_mismatch", "invalid_query", "invalid_cursor"],
});

export const readFhirResourceOperation = defineOperation({
  profile: PLATFORM_FHIR_PROFILE,
  method: "GET",
  path: "/fhir/{resourceType}/{id}",
  operationId: "readFhirResource",
  tag: "FHIR",
  summary: "Read one resource",
  description: "One resource by its stable id; 404 when it is not shared with this key now (another application's subject, a revoked consent, a category outside it)." + ERRORS_NOTE,
  auth: "key",
  agentOperation: "get_health_record",
  params: z.object({ resourceType: resourceTypeParam, id: z.string().describe("The resource id (rec-..., ctx-...).").meta({ example: "rec-9Tm4Wq2Lx7Kd1Rb5Nv8Yc3Hf" }) }),
  success: { status: 200, description: "The resource.", schema: fhirResourceSchema, contentType: FHIR_JSON },
  errors: ["not_found", "credential_scope_exceeded"],
});

/** Every /api/v1/fhir operation, in the order the OpenAPI document lists them. */
export const FHIR_OPERATIONS = [getFhirMetadataOperation, readFhirPatientOperation, getFhirPatientEverythingOperation, searchFhirOperation, readFhirResourceOperation] as const;
