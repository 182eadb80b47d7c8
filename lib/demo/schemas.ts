import { z } from "zod";
import { CATEGORIES, type Category, recordSchemas } from "@/lib/records/schemas";

// Demo-only objects use snake_case like the spec's demo fields (external_user_id, patient_id, failure_code);
// the platform-shaped record response uses the platform's camelCase (syncStatus, schemaVersion).

const notice = z.string().describe("Always present: the data is fictional and not for clinical use.");
const path = z.string().describe("An absolute path on this host.");
const category = z.enum(CATEGORIES);

function listOf<T extends z.ZodType>(item: T, id: string, description: string) {
  return z
    .object({
      data: z.array(item),
      hasMore: z.literal(false).describe("Demo lists are never paginated."),
      nextCursor: z.null(),
      notice,
    })
    .meta({ id, description });
}

export const demoIndexSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    default_scenario: z.string().describe("The scenario used when a request names none."),
    links: z.record(z.string(), path).describe("Entry points of the demo API."),
    notice,
  })
  .meta({ id: "DemoIndex", description: "What the demo serves and where." });

export const demoHealthSchema = z
  .object({ status: z.literal("ok"), notice })
  .meta({ id: "DemoHealth", description: "The demo is available." });

export const providerSchema = z
  .object({ id: z.string(), name: z.string(), city: z.string(), state: z.string(), description: z.string() })
  .meta({ id: "DemoProvider", description: "A fictional health system that holds scenario records." });
export const providerListSchema = listOf(providerSchema, "DemoProviderList", "Every fictional provider.");

export const scenarioSchema = z
  .object({
    id: z.string(),
    kind: z.enum(["record", "behavior", "session"]).describe("record and behavior scenarios have a synthetic patient; session scenarios only shape a Connect outcome."),
    title: z.string(),
    description: z.string(),
    subject: z.string().nullable().describe("The fixed demo subject (u_); null for session scenarios."),
    patient_id: z.string().nullable().describe("The FHIR Patient id in the scenario Bundle."),
    bundle_id: z.string().nullable().describe("Id of the scenario's FHIR Bundle (GET /fhir/Bundle/{bundle_id})."),
    behavior: z.enum(["rate_limited", "consent_revoked", "consent_partial", "source_unavailable"]).nullable(),
    session_outcome: z
      .object({ status: z.enum(["cancelled", "failed"]), failure_code: z.literal("source_unavailable").nullable() })
      .nullable()
      .describe("What POST /connect/sessions returns for a session scenario."),
    consent_categories: z.array(category).describe("What the patient's consent covers."),
    sources: z.array(
      z.object({
        key: z.string(),
        provider_id: z.string(),
        phases: z.int().describe("Source phases the authenticated sandbox can advance through; the demo serves phase 0."),
      }),
    ),
    controls: z.array(z.string()).describe("Sandbox controls the authenticated sandbox supports; the demo cannot perform them."),
    exercises: z.array(z.string()).describe("What an integration exercises with this scenario."),
    links: z.record(z.string(), path),
  })
  .meta({ id: "DemoScenario", description: "One scenario manifest entry; carries no clinical data." });
export const scenarioListSchema = listOf(scenarioSchema, "DemoScenarioList", "The scenario manifest, in manifest order.");

export const patientSchema = z
  .object({
    patient_id: z.string(),
    subject: z.string(),
    scenario: z.string(),
    name: z.string().nullable().describe("The synthetic patient's display name."),
    birth_date: z.string().nullable(),
    gender: z.string().nullable(),
    links: z.record(z.string(), path),
  })
  .meta({ id: "DemoPatient", description: "A synthetic patient of a record or behavior scenario." });
export const patientListSchema = listOf(patientSchema, "DemoPatientList", "One synthetic patient per scenario that has one, in manifest order.");

export const connectSessionRequestSchema = z
  .strictObject({
    external_user_id: z.string().min(1).max(200).describe("Your own id for the user; echoed back."),
    categories: z
      .array(z.string())
      .optional()
      .describe("Categories to request; omitted requests everything the scenario's consent covers."),
    scenario: z.string().optional().describe("Scenario to simulate; default baseline-adult."),
  })
  .meta({ id: "DemoConnectSessionRequest", description: "A simulated Connect session." });
export type ConnectSessionRequest = z.infer<typeof connectSessionRequestSchema>;

export const connectSessionResultSchema = z
  .object({
    status: z.enum(["complete", "cancelled", "failed"]),
    scenario: z.string(),
    external_user_id: z.string(),
    categories: z.array(category).describe("The categories the patient granted (none unless complete)."),
    patient_id: z.string().nullable(),
    subject: z.string().nullable(),
    failure_code: z.literal("source_unavailable").nullable(),
    persisted: z.literal(false).describe("Demo sessions are computed, never stored."),
    links: z.record(z.string(), path),
    notice,
  })
  .meta({ id: "DemoConnectSessionResult", description: "The outcome of a simulated Connect session." });

export const syncStatusSchema = z.enum(["complete", "partial"]).describe("partial when a source could not be read.");
export const syncWarningSchema = z
  .object({
    code: z.literal("source_unavailable"),
    message: z.string(),
    sourceId: z.string(),
  })
  .meta({ id: "SyncWarning", description: "Why a read is partial." });

const fhirResourceSchema = z
  .looseObject({ resourceType: z.string(), id: z.string().optional() })
  .meta({ id: "FhirResource", description: "A FHIR R4 resource (https://hl7.org/fhir/R4/)." });

export const legacyRecordSchema = z
  .object({
    object: z.literal("demo_record"),
    patient_id: z.string(),
    scenario: z.string(),
    categories: z.array(category).describe("The categories served, in category order."),
    syncStatus: syncStatusSchema,
    warnings: z.array(syncWarningSchema),
    record: z
      .partialRecord(category, z.array(fhirResourceSchema))
      .describe("The patient's FHIR resources grouped by category; only the requested categories are present."),
    notice,
  })
  .meta({ id: "DemoRecord", description: "Legacy grouped FHIR record of a synthetic patient." });

function sectionSchema<C extends Category>(c: C) {
  return z.object({ records: z.array(recordSchemas[c]) }).optional();
}

export const recordSectionsSchema = z
  .object({
    demographics: sectionSchema("demographics"),
    conditions: sectionSchema("conditions"),
    medications: sectionSchema("medications"),
    allergies: sectionSchema("allergies"),
    immunizations: sectionSchema("immunizations"),
    labs: sectionSchema("labs"),
    vitals: sectionSchema("vitals"),
    procedures: sectionSchema("procedures"),
    documents: sectionSchema("documents"),
    claims: sectionSchema("claims"),
  } satisfies Record<Category, z.ZodType>)
  .describe("One section per requested category, in category order; unrequested sections are omitted.")
  .meta({ id: "RecordSections" });

export const normalizedRecordResponseSchema = z
  .object({
    subject: z.string(),
    scenario: z.string(),
    syncStatus: syncStatusSchema,
    warnings: z.array(syncWarningSchema),
    consent: z.object({
      status: z.literal("active"),
      categories: z.array(category).describe("What the simulated consent receipt covers."),
    }),
    sources: z.array(
      z.object({
        sourceId: z.string(),
        sourceName: z.string(),
        providerId: z.string(),
        status: z.enum(["synced", "unavailable"]),
      }),
    ),
    sections: recordSectionsSchema,
    meta: z.object({ schemaVersion: z.literal(2) }),
    notice,
  })
  .meta({ id: "DemoHealthRecord", description: "A platform-shaped, consent-filtered normalized snapshot." });
export type NormalizedRecordResponse = z.infer<typeof normalizedRecordResponseSchema>;

export const fhirBundleSchema = z
  .looseObject({ resourceType: z.literal("Bundle"), type: z.string() })
  .meta({ id: "FhirBundle", description: "A FHIR R4 Bundle (https://hl7.org/fhir/R4/bundle.html)." });
export const fhirCapabilityStatementSchema = z
  .looseObject({ resourceType: z.literal("CapabilityStatement"), fhirVersion: z.string() })
  .meta({ id: "FhirCapabilityStatement", description: "A FHIR R4 CapabilityStatement." });
export { fhirResourceSchema };

export const scenarioResponseSchema = scenarioSchema
  .extend({ notice })
  .meta({ id: "DemoScenarioResponse", description: "One scenario manifest entry." });
export const patientResponseSchema = patientSchema
  .extend({ notice })
  .meta({ id: "DemoPatientResponse", description: "One synthetic patient." });
