import { z } from "zod";
import { defineOperation, type OperationDeclaration } from "@/lib/api";
import { FHIR_JSON } from "@/lib/fhir";
import type { ErrorCode } from "@/lib/http";
import { CATEGORIES, type Category } from "@/lib/records";
import { SCENARIOS } from "@/lib/sandbox";
import { createDemoConnectSession } from "./connect-session";
import { getDemoIndex } from "./demo-index";
import { demoList } from "./demo-list";
import { getDemoFhirCapabilities } from "./fhir-capability";
import { buildHealthRecord } from "./health-record";
import { buildLegacyRecord } from "./legacy-record";
import { DATA_NOTICE } from "./notice";
import { presentPatient } from "./patients";
import { DEMO_PROFILE } from "./profile";
import { listDemoProviders } from "./providers";
import { SCENARIO_HEADER } from "./record-read";
import { RATE_LIMIT_SLOT_MS } from "./scenario-behavior";
import { DEFAULT_SCENARIO_ID, patientScenarios, presentScenario, type PatientScenario } from "./scenario-manifest";
import {
  connectSessionRequestSchema,
  connectSessionResultSchema,
  demoHealthSchema,
  demoIndexSchema,
  fhirBundleSchema,
  fhirCapabilityStatementSchema,
  fhirResourceSchema,
  legacyRecordSchema,
  normalizedRecordResponseSchema,
  patientListSchema,
  patientResponseSchema,
  providerListSchema,
  scenarioListSchema,
  scenarioResponseSchema,
} from "./schemas";

const baseline: PatientScenario = (() => {
  const scenario = patientScenarios().find((candidate) => candidate.id === DEFAULT_SCENARIO_ID);
  if (!scenario) throw new Error(`The default scenario ${DEFAULT_SCENARIO_ID} has no patient`);
  return scenario;
})();
/** A small slice of the baseline record keeps the documents' examples readable. */
const EXAMPLE_CATEGORIES: Category[] = ["allergies", "medications"];

const categoriesQuery = z.object({
  categories: z
    .string()
    .optional()
    .describe(`Comma-separated subset of ${CATEGORIES.join(", ")}. Omitted: every category the consent grants.`)
    .meta({ example: "medications,allergies" }),
});

const patientIdParams = z.object({
  patientId: z.string().describe("A FHIR Patient id.").meta({ example: baseline.patientId }),
});

const behaviors =
  `Behavior scenarios, checked after the categories: rate-limited answers 429 rate_limited in every other ` +
  `${RATE_LIMIT_SLOT_MS / 1000}-second slot; consent-revoked answers 410 consent_inactive; consent-partial answers ` +
  "403 consent_scope_exceeded for categories outside its receipt; source-unavailable answers 200 with syncStatus " +
  `partial and a source_unavailable warning. Behavior scenarios name themselves in ${SCENARIO_HEADER}.`;

const RECORD_ERRORS: ErrorCode[] = ["not_found", "invalid_categories", "consent_scope_exceeded", "consent_inactive"];
/** Answers that simulate per-request state (consent, sync, rate-limit slots) must not be cached. */
const NO_STORE = "no-store";

export const getDemoIndexOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/",
  operationId: "getDemoIndex",
  tag: "Demo",
  summary: "Demo index",
  description: "Links to every part of the demo and the default scenario's records.",
  auth: "none",
  success: { status: 200, description: "The index.", schema: demoIndexSchema, example: getDemoIndex },
  errors: [],
});

export const getDemoHealthOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/health",
  operationId: "getDemoHealth",
  tag: "Demo",
  summary: "Availability",
  auth: "none",
  cache: NO_STORE,
  success: { status: 200, description: "The demo is available.", schema: demoHealthSchema, example: () => ({ status: "ok", notice: DATA_NOTICE }) },
  errors: [],
});

export const listDemoProvidersOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/providers",
  operationId: "listDemoProviders",
  tag: "Demo",
  summary: "Fictional providers",
  auth: "none",
  success: { status: 200, description: "Every provider.", schema: providerListSchema, example: listDemoProviders },
  errors: [],
});

export const listDemoScenariosOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/scenarios",
  operationId: "listDemoScenarios",
  tag: "Scenarios",
  summary: "Scenario manifest",
  description: "Every scenario in manifest order, with links; no clinical data.",
  auth: "none",
  success: { status: 200, description: "The manifest.", schema: scenarioListSchema, example: () => demoList(SCENARIOS.map(presentScenario)) },
  errors: [],
});

export const getDemoScenarioOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/scenarios/{scenarioId}",
  operationId: "getDemoScenario",
  tag: "Scenarios",
  summary: "One manifest entry",
  auth: "none",
  params: z.object({ scenarioId: z.string().describe("A scenario id.").meta({ example: baseline.id }) }),
  success: {
    status: 200,
    description: "The scenario.",
    schema: scenarioResponseSchema,
    example: () => ({ ...presentScenario(baseline), notice: DATA_NOTICE }),
  },
  errors: ["not_found"],
});

export const createDemoConnectSessionOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "POST",
  path: "/connect/sessions",
  operationId: "createDemoConnectSession",
  tag: "Scenarios",
  summary: "Simulate a Connect session",
  description:
    "Computes the session's outcome; nothing is stored. Record and behavior scenarios complete with their patient; " +
    "connect-cancelled answers status cancelled and connect-failed status failed with failure_code " +
    "source_unavailable, both with patient_id null. The patient grants the requested categories the scenario's " +
    "consent covers; a scenario that can share none of them answers 400 invalid_categories.",
  auth: "none",
  cache: NO_STORE,
  body: connectSessionRequestSchema,
  bodyDescription: "The session to simulate.",
  success: {
    status: 201,
    description: "The simulated outcome.",
    schema: connectSessionResultSchema,
    example: () => createDemoConnectSession({ external_user_id: "user-123", categories: EXAMPLE_CATEGORIES, scenario: baseline.id }),
  },
  errors: ["invalid_scenario", "invalid_categories"],
});

export const listDemoPatientsOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/patients",
  operationId: "listDemoPatients",
  tag: "Patients",
  summary: "Synthetic patients",
  description: "One entry per scenario that has a synthetic patient (record and behavior scenarios), in manifest order.",
  auth: "none",
  success: { status: 200, description: "The patients.", schema: patientListSchema, example: () => demoList(patientScenarios().map(presentPatient)) },
  errors: [],
});

export const getDemoPatientOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/patients/{patientId}",
  operationId: "getDemoPatient",
  tag: "Patients",
  summary: "One synthetic patient",
  auth: "none",
  params: patientIdParams,
  success: {
    status: 200,
    description: "The patient.",
    schema: patientResponseSchema,
    example: () => ({ ...presentPatient(baseline), notice: DATA_NOTICE }),
  },
  errors: ["not_found"],
});

export const getDemoLegacyRecordOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/patients/{patientId}/records",
  operationId: "getDemoLegacyRecord",
  tag: "Records",
  summary: "Grouped FHIR record (legacy)",
  description:
    "Legacy compatibility route, no removal scheduled. Every query parameter other than categories (such as cursor) " +
    `is ignored. ${behaviors}`,
  auth: "none",
  cache: NO_STORE,
  params: patientIdParams,
  query: categoriesQuery,
  success: {
    status: 200,
    description: "The record.",
    schema: legacyRecordSchema,
    example: () => buildLegacyRecord(baseline, EXAMPLE_CATEGORIES),
  },
  errors: RECORD_ERRORS,
  headers: [SCENARIO_HEADER],
});

export const getDemoHealthRecordOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/users/{subject}/records",
  operationId: "getDemoHealthRecord",
  tag: "Records",
  summary: "Normalized health record",
  description:
    "Platform-shaped, consent-filtered normalized snapshot (meta.schemaVersion 2), one section per requested " +
    "category. No pagination or change-feed parameters: any query parameter other than categories answers 400 " +
    `invalid_query, but only once the scenario lets the request through. ${behaviors}`,
  auth: "none",
  cache: NO_STORE,
  params: z.object({
    subject: z
      .string()
      .describe(`A demo subject; the default scenario ${baseline.id} has ${baseline.subject}.`)
      .meta({ example: baseline.subject }),
  }),
  query: categoriesQuery,
  success: {
    status: 200,
    description: "The snapshot.",
    schema: normalizedRecordResponseSchema,
    example: () => buildHealthRecord(baseline, EXAMPLE_CATEGORIES),
  },
  errors: [...RECORD_ERRORS, "invalid_query"],
  headers: [SCENARIO_HEADER],
});

export const getDemoFhirCapabilitiesOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/fhir/metadata",
  operationId: "getDemoFhirCapabilities",
  tag: "FHIR",
  summary: "FHIR R4 CapabilityStatement",
  auth: "none",
  success: {
    status: 200,
    description: "The capability statement.",
    schema: fhirCapabilityStatementSchema,
    contentType: FHIR_JSON,
    example: () => getDemoFhirCapabilities("https://chartkey.example"),
  },
  errors: [],
});

export const searchDemoFhirOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/fhir/{resourceType}",
  operationId: "searchDemoFhir",
  tag: "FHIR",
  summary: "Search one resource type",
  description:
    "A searchset Bundle across the scenario Bundles. With patient, that patient's resources of the type; without, " +
    `every resource of the type in the ${baseline.id} Bundle, including resources that reference no patient. ` +
    "Other search parameters are ignored. Consent and rate-limit scenario behaviors do not apply. Errors use the " +
    "demo's error envelope, not OperationOutcome.",
  auth: "none",
  params: z.object({ resourceType: z.string().describe("A FHIR resource type.").meta({ example: "Observation" }) }),
  query: z.object({
    patient: z
      .string()
      .optional()
      .describe("A demo subject (u_...), a FHIR Patient id, or Patient/{id}. An unknown patient answers 404.")
      .meta({ example: baseline.subject }),
  }),
  success: { status: 200, description: "The searchset.", schema: fhirBundleSchema, contentType: FHIR_JSON },
  errors: ["not_found"],
});

export const readDemoFhirOperation = defineOperation({
  profile: DEMO_PROFILE,
  method: "GET",
  path: "/fhir/{resourceType}/{resourceId}",
  operationId: "readDemoFhir",
  tag: "FHIR",
  summary: "Read one resource or a whole scenario Bundle",
  description: "resourceType Bundle with a scenario's bundle_id returns that whole Bundle.",
  auth: "none",
  params: z.object({
    resourceType: z.string().describe("A FHIR resource type, or Bundle.").meta({ example: "Bundle" }),
    resourceId: z.string().describe("The resource id.").meta({ example: baseline.bundleId }),
  }),
  success: { status: 200, description: "The resource.", schema: fhirResourceSchema, contentType: FHIR_JSON },
  errors: ["not_found"],
});

/** Every /demo/v1 operation this domain serves, in the order the document lists them. */
export const DEMO_OPERATIONS: readonly OperationDeclaration[] = [
  getDemoIndexOperation,
  getDemoHealthOperation,
  listDemoProvidersOperation,
  listDemoScenariosOperation,
  getDemoScenarioOperation,
  createDemoConnectSessionOperation,
  listDemoPatientsOperation,
  getDemoPatientOperation,
  getDemoLegacyRecordOperation,
  getDemoHealthRecordOperation,
  getDemoFhirCapabilitiesOperation,
  searchDemoFhirOperation,
  readDemoFhirOperation,
];
