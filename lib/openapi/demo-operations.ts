import { z } from "zod";
import { SCENARIO_HEADER } from "@/lib/demo/record-read";
import { RATE_LIMIT_SLOT_MS } from "@/lib/demo/scenario-behavior";
import { defaultScenario } from "@/lib/demo/scenario-manifest";
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
} from "@/lib/demo/schemas";
import type { ErrorCode } from "@/lib/http/error-codes";
import { CATEGORIES } from "@/lib/records/categories";
import { openApiDocumentSchema } from "./common-schemas";
import type { OperationSpec } from "./operation";

/** Any demo request can meet the per-address limit or a server fault. */
const ALWAYS: ErrorCode[] = ["rate_limited", "internal_error"];
const FHIR_JSON = "application/fhir+json";

const categoriesQuery = {
  name: "categories",
  schema: z.string(),
  description: `Comma-separated subset of ${CATEGORIES.join(", ")}. Omitted: every category the consent grants.`,
  example: "medications,allergies",
};

const behaviors =
  `Behavior scenarios, checked after the categories: rate-limited answers 429 rate_limited in every other ` +
  `${RATE_LIMIT_SLOT_MS / 1000}-second slot; consent-revoked answers 410 consent_inactive; consent-partial answers ` +
  "403 consent_scope_exceeded for categories outside its receipt; source-unavailable answers 200 with syncStatus " +
  `partial and a source_unavailable warning. Behavior scenarios name themselves in ${SCENARIO_HEADER}.`;

/**
 * Every /demo/v1 operation, with the zod schemas its handler returns. The demo routes and this list change
 * together; the demo route tests compare each response with its schema.
 */
export function demoOperations(): OperationSpec[] {
  const baseline = defaultScenario();
  return [
    {
      method: "get",
      path: "/",
      operationId: "getDemoIndex",
      tag: "Demo",
      summary: "Demo index",
      description: "Links to every part of the demo and the default scenario's records.",
      success: { status: 200, description: "The index.", schema: demoIndexSchema },
      errors: ALWAYS,
    },
    {
      method: "get",
      path: "/health",
      operationId: "getDemoHealth",
      tag: "Demo",
      summary: "Availability",
      success: { status: 200, description: "The demo is available.", schema: demoHealthSchema },
      errors: ALWAYS,
    },
    {
      method: "get",
      path: "/providers",
      operationId: "listDemoProviders",
      tag: "Demo",
      summary: "Fictional providers",
      success: { status: 200, description: "Every provider.", schema: providerListSchema },
      errors: ALWAYS,
    },
    {
      method: "get",
      path: "/scenarios",
      operationId: "listDemoScenarios",
      tag: "Scenarios",
      summary: "Scenario manifest",
      description: "Every scenario in manifest order, with links; no clinical data.",
      success: { status: 200, description: "The manifest.", schema: scenarioListSchema },
      errors: ALWAYS,
    },
    {
      method: "get",
      path: "/scenarios/{scenarioId}",
      operationId: "getDemoScenario",
      tag: "Scenarios",
      summary: "One manifest entry",
      pathParams: [{ name: "scenarioId", schema: z.string(), description: "A scenario id.", example: baseline.id }],
      success: { status: 200, description: "The scenario.", schema: scenarioResponseSchema },
      errors: ["not_found", ...ALWAYS],
    },
    {
      method: "post",
      path: "/connect/sessions",
      operationId: "createDemoConnectSession",
      tag: "Scenarios",
      summary: "Simulate a Connect session",
      description:
        "Computes the session's outcome; nothing is stored. Record and behavior scenarios complete with their patient; " +
        "connect-cancelled answers status cancelled and connect-failed status failed with failure_code " +
        "source_unavailable, both with patient_id null. The patient grants the requested categories the scenario's " +
        "consent covers; a scenario that can share none of them answers 400 invalid_categories.",
      body: { schema: connectSessionRequestSchema, description: "The session to simulate." },
      success: { status: 201, description: "The simulated outcome.", schema: connectSessionResultSchema },
      errors: ["invalid_json", "invalid_request", "invalid_scenario", "invalid_categories", "payload_too_large", ...ALWAYS],
    },
    {
      method: "get",
      path: "/patients",
      operationId: "listDemoPatients",
      tag: "Patients",
      summary: "Synthetic patients",
      description: "One entry per scenario that has a synthetic patient (record and behavior scenarios), in manifest order.",
      success: { status: 200, description: "The patients.", schema: patientListSchema },
      errors: ALWAYS,
    },
    {
      method: "get",
      path: "/patients/{patientId}",
      operationId: "getDemoPatient",
      tag: "Patients",
      summary: "One synthetic patient",
      pathParams: [{ name: "patientId", schema: z.string(), description: "A FHIR Patient id.", example: baseline.patientId }],
      success: { status: 200, description: "The patient.", schema: patientResponseSchema },
      errors: ["not_found", ...ALWAYS],
    },
    {
      method: "get",
      path: "/patients/{patientId}/records",
      operationId: "getDemoLegacyRecord",
      tag: "Records",
      summary: "Grouped FHIR record (legacy)",
      description:
        "Legacy compatibility route, no removal scheduled. Every query parameter other than categories (such as cursor) " +
        `is ignored. ${behaviors}`,
      pathParams: [{ name: "patientId", schema: z.string(), description: "A FHIR Patient id.", example: baseline.patientId }],
      query: [categoriesQuery],
      success: { status: 200, description: "The record.", schema: legacyRecordSchema },
      errors: ["not_found", "invalid_categories", "consent_scope_exceeded", "consent_inactive", ...ALWAYS],
      headers: [SCENARIO_HEADER],
    },
    {
      method: "get",
      path: "/users/{subject}/records",
      operationId: "getDemoHealthRecord",
      tag: "Records",
      summary: "Normalized health record",
      description:
        "Platform-shaped, consent-filtered normalized snapshot (meta.schemaVersion 2), one section per requested " +
        "category. No pagination or change-feed parameters: any query parameter other than categories answers 400 " +
        `invalid_query, but only once the scenario lets the request through. ${behaviors}`,
      pathParams: [
        {
          name: "subject",
          schema: z.string(),
          description: `A demo subject; the default scenario ${baseline.id} has ${baseline.subject}.`,
          example: baseline.subject,
        },
      ],
      query: [categoriesQuery],
      success: { status: 200, description: "The snapshot.", schema: normalizedRecordResponseSchema },
      errors: ["not_found", "invalid_categories", "invalid_query", "consent_scope_exceeded", "consent_inactive", ...ALWAYS],
      headers: [SCENARIO_HEADER],
    },
    {
      method: "get",
      path: "/fhir/metadata",
      operationId: "getDemoFhirCapabilities",
      tag: "FHIR",
      summary: "FHIR R4 CapabilityStatement",
      success: { status: 200, description: "The capability statement.", schema: fhirCapabilityStatementSchema, contentType: FHIR_JSON },
      errors: ALWAYS,
    },
    {
      method: "get",
      path: "/fhir/{resourceType}",
      operationId: "searchDemoFhir",
      tag: "FHIR",
      summary: "Search one resource type",
      description:
        "A searchset Bundle across the scenario Bundles. With patient, that patient's resources of the type; without, " +
        `every resource of the type in the ${baseline.id} Bundle, including resources that reference no patient. ` +
        "Other search parameters are ignored. Consent and rate-limit scenario behaviors do not apply. Errors use the " +
        "demo's error envelope, not OperationOutcome.",
      pathParams: [{ name: "resourceType", schema: z.string(), description: "A FHIR resource type.", example: "Observation" }],
      query: [
        {
          name: "patient",
          schema: z.string(),
          description: "A demo subject (u_...), a FHIR Patient id, or Patient/{id}. An unknown patient answers 404.",
          example: baseline.subject,
        },
      ],
      success: { status: 200, description: "The searchset.", schema: fhirBundleSchema, contentType: FHIR_JSON },
      errors: ["not_found", ...ALWAYS],
    },
    {
      method: "get",
      path: "/fhir/{resourceType}/{resourceId}",
      operationId: "readDemoFhir",
      tag: "FHIR",
      summary: "Read one resource or a whole scenario Bundle",
      description: "resourceType Bundle with a scenario's bundle_id returns that whole Bundle.",
      pathParams: [
        { name: "resourceType", schema: z.string(), description: "A FHIR resource type, or Bundle.", example: "Bundle" },
        { name: "resourceId", schema: z.string(), description: "The resource id.", example: baseline.bundleId },
      ],
      success: { status: 200, description: "The resource.", schema: fhirResourceSchema, contentType: FHIR_JSON },
      errors: ["not_found", ...ALWAYS],
    },
    {
      method: "get",
      path: "/openapi.json",
      operationId: "getDemoOpenApi",
      tag: "Demo",
      summary: "This API's OpenAPI 3.1 document",
      success: { status: 200, description: "The OpenAPI document.", schema: openApiDocumentSchema },
      errors: ALWAYS,
    },
  ];
}
