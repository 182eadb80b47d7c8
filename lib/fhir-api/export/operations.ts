import { z } from "zod";
import { defineOperation, pathId } from "@/lib/api";
import { FHIR_JSON } from "@/lib/fhir";
import { PLATFORM_FHIR_PROFILE } from "../profile";
import { fhirResourceSchema } from "../schemas";
import { CONSENTED_GROUP_ID, FHIR_NDJSON, NDJSON_FORMATS } from "./export-request";

const ERRORS_NOTE = " Errors are OperationOutcome resources (application/fhir+json) whose issue.details carries the error code. Delegated credentials cannot export (403 operation_forbidden).";

const kickOffQuery = z.object({
  _type: z.string().optional().describe("Comma-separated resource types (repeatable); every type served when absent.").meta({ example: "Patient,Observation,Condition" }),
  _since: z
    .string()
    .optional()
    .describe("An instant: only resources changed at or after it (records from the change feed, context resources by their last change).")
    .meta({ example: "2026-11-01T00:00:00Z" }),
  _outputFormat: z.string().optional().describe(`One of ${NDJSON_FORMATS.join(", ")} (the default); anything else is 400.`).meta({ example: FHIR_NDJSON }),
});
const preferHeader = z.object({ Prefer: z.string().optional().describe("Required: respond-async (Bulk Data Access IG).").meta({ example: "respond-async" }) });

const kickOffDescription =
  "Kicks off a Bulk Data export (FHIR Bulk Data Access IG v2, asynchronous) of the subjects sharing records with the application now, in the " +
  "key's environment: every resource the consent and the application's allowlist let it read, as ndjson files, one or more per type (a file " +
  "holds up to 32 MiB). Answers 202 with Content-Location, the status URL to poll. Consent is checked again as each subject is written, so a " +
  "revocation during the export removes the subject from what is still to be written. One export per application and environment runs at a " +
  "time: another kick-off meanwhile is 429 rate_limited with Retry-After." +
  ERRORS_NOTE;

const accepted = { status: 202, description: "Accepted: poll the Content-Location.", schema: fhirResourceSchema, contentType: FHIR_JSON };

export const exportFhirOperation = defineOperation({
  profile: PLATFORM_FHIR_PROFILE,
  method: "GET",
  path: "/fhir/$export",
  operationId: "exportFhir",
  tag: "FHIR",
  summary: "Kick off a Bulk Data export of the consented population",
  description: kickOffDescription,
  auth: "key",
  query: kickOffQuery,
  requestHeaders: preferHeader,
  success: accepted,
  headers: ["Content-Location"],
  errors: ["invalid_request", "invalid_query"],
});

export const exportFhirGroupOperation = defineOperation({
  profile: PLATFORM_FHIR_PROFILE,
  method: "GET",
  path: "/fhir/Group/{groupId}/$export",
  operationId: "exportFhirGroup",
  tag: "FHIR",
  summary: "Kick off a Bulk Data export of a Group",
  description:
    `The Group ${CONSENTED_GROUP_ID} is the application's consented population in the key's environment (a sandbox key's sandbox subjects, a live ` +
    `key's live subjects): the same export as /$export. Any other Group id is 404. ` +
    kickOffDescription,
  auth: "key",
  params: z.object({ groupId: z.string().describe(`The Group id: ${CONSENTED_GROUP_ID}.`).meta({ example: CONSENTED_GROUP_ID }) }),
  query: kickOffQuery,
  requestHeaders: preferHeader,
  success: accepted,
  headers: ["Content-Location"],
  errors: ["invalid_request", "invalid_query", "not_found"],
});

const exportParams = z.object({
  exportId: pathId("fhx_", { description: "The export id, from the kick-off's Content-Location.", example: "fhx_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd", resource: "export" }),
});

export const exportManifestSchema = z
  .object({
    transactionTime: z.string().describe("The instant the export started; resources changed after it may be missing (start the next incremental export with _since at it)."),
    request: z.string().describe("The kick-off URL."),
    requiresAccessToken: z.literal(true).describe("Files are downloaded with the same key (Authorization: Bearer)."),
    output: z.array(z.object({ type: z.string(), url: z.string(), count: z.number().int() })).describe("The ndjson files, one or more per type."),
    error: z.array(z.object({ type: z.string(), url: z.string() })).describe("Always empty: a subject whose consent ended is left out, not reported."),
  })
  .meta({ id: "FhirBulkExportManifest", description: "The Bulk Data IG's completion manifest." });

export const getFhirExportStatusOperation = defineOperation({
  profile: PLATFORM_FHIR_PROFILE,
  method: "GET",
  path: "/fhir/$export-status/{exportId}",
  operationId: "getFhirExportStatus",
  tag: "FHIR",
  summary: "Poll a Bulk Data export",
  description:
    "202 with X-Progress and Retry-After while the export runs; 200 with the manifest once done (its files are kept 1 hour after completion, then " +
    "deleted: the status is 404 after). 500 for a failed export. Another application's export, or another environment's, is 404." +
    ERRORS_NOTE,
  auth: "key",
  params: exportParams,
  success: { status: 200, description: "The completion manifest.", schema: exportManifestSchema },
  otherResponses: [{ status: 202, description: "In progress: X-Progress says how far, Retry-After when to ask again.", schema: fhirResourceSchema, contentType: FHIR_JSON }],
  headers: ["X-Progress", "Retry-After"],
  errors: ["not_found", "internal_error"],
});

export const cancelFhirExportOperation = defineOperation({
  profile: PLATFORM_FHIR_PROFILE,
  method: "DELETE",
  path: "/fhir/$export-status/{exportId}",
  operationId: "cancelFhirExport",
  tag: "FHIR",
  summary: "Cancel a Bulk Data export, or delete its files",
  description: "Stops an export in progress, or ends a completed one early; its files are deleted at once and its status is 404 after." + ERRORS_NOTE,
  auth: "key",
  params: exportParams,
  success: { status: 202, description: "Cancelled.", schema: fhirResourceSchema, contentType: FHIR_JSON },
  errors: ["not_found"],
});

export const getFhirExportFileOperation = defineOperation({
  profile: PLATFORM_FHIR_PROFILE,
  method: "GET",
  path: "/fhir/$export-file/{fileId}",
  operationId: "getFhirExportFile",
  tag: "FHIR",
  summary: "Download one file of a Bulk Data export",
  description: "One manifest file as application/fhir+ndjson (one resource per line), with the key that can read the export; 404 for another application's file or after it expired." + ERRORS_NOTE,
  auth: "key",
  params: z.object({ fileId: pathId("fhf_", { description: "From the manifest's output url.", example: "fhf_9Tm4Wq2Lx7Kd1Rb5Nv8Yc3Hf", resource: "export file" }) }),
  success: { status: 200, description: "The ndjson file.", schema: z.string().describe("Newline-delimited FHIR R4 resources."), contentType: FHIR_NDJSON },
  errors: ["not_found"],
});

/** Every Bulk Data operation, in the order the OpenAPI document lists them. */
export const FHIR_EXPORT_OPERATIONS = [exportFhirOperation, exportFhirGroupOperation, getFhirExportStatusOperation, cancelFhirExportOperation, getFhirExportFileOperation] as const;
