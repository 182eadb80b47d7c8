import { z } from "zod";
import { defineOperation, pathId, PLATFORM_PROFILE } from "@/lib/api";
import { HEADER, type ErrorCode } from "@/lib/http";
import { tefcaConfigBody } from "./config";
import { tefcaResource } from "./network";
import { presentDocument } from "./present-session";
import {
  createTefcaSessionBodySchema,
  discoverBodySchema,
  exportQuerySchema,
  ifMatchHeadersSchema,
  retrieveBodySchema,
  revokeBodySchema,
  tefcaConfigSchema,
  tefcaExportSchema,
  tefcaRetrievalSchema,
  tefcaSessionSchema,
  type TefcaSessionResource,
} from "./schemas";

const sessionParams = z.object({
  sessionId: pathId("tfs_", {
    resource: "TEFCA session",
    description: "The TEFCA session id (tfs_).",
    example: "tfs_4Kd8Lm2Np6Qr0St4Uv8Wx2Yz",
    notFound: "session_not_found",
  }),
});

/** What every operation on one session can answer besides its own rules. */
const SESSION_ERRORS: ErrorCode[] = ["sandbox_only", "session_not_found", "tefca_sandbox_unavailable"];
/** ... and what every change to one session can answer. */
const CHANGE_ERRORS: ErrorCode[] = [...SESSION_ERRORS, "session_changed", "app_inactive", "invalid_state", "synthetic_patient_required"];

// Examples are real answers: built from the synthetic network itself, so they cannot drift from it.
const exampleDocuments = () => ["doc_cvh0medications01", "doc_cvh0allergies0001", "doc_nsx0medications01"].map((id) => presentDocument(id)!);
const exampleAllergy = () => tefcaResource("AllergyIntolerance/tefca-cedar-allergy-penicillin");

function exampleSession(overrides: Partial<TefcaSessionResource> = {}): TefcaSessionResource {
  return {
    object: "tefca_session",
    id: "tfs_4Kd8Lm2Np6Qr0St4Uv8Wx2Yz",
    state: "started",
    patientId: "tefca-synthetic-rosa",
    categories: ["medications", "allergies"],
    documents: [],
    selectedDocumentIds: [],
    retrievedResourceCount: 0,
    version: 0,
    expiresAt: "2026-11-23T10:27:00.000Z",
    createdAt: "2026-11-23T10:12:00.000Z",
    updatedAt: "2026-11-23T10:12:00.000Z",
    ...overrides,
  };
}

const common = { profile: PLATFORM_PROFILE, tag: "TEFCA", auth: "key" as const };
const sessionChangeCommon = { ...common, params: sessionParams, requestHeaders: ifMatchHeadersSchema, headers: [HEADER.etag] };

export const getTefcaConfigOperation = defineOperation({
  ...common,
  method: "GET",
  path: "/tefca/config",
  operationId: "getTefcaConfig",
  summary: "The synthetic TEFCA sandbox's fixed patient, participants and limits",
  description: "Sandbox keys only. The patientId here is the only patient the sandbox supports; never send demographics.",
  success: {
    status: 200,
    description: "The configuration.",
    schema: tefcaConfigSchema,
    example: tefcaConfigBody,
  },
  errors: ["sandbox_only"],
});

export const createTefcaSessionOperation = defineOperation({
  ...common,
  method: "POST",
  path: "/tefca/sessions",
  operationId: "createTefcaSession",
  summary: "Start a TEFCA session",
  description:
    "Sandbox keys only. Starts a session for the fixed fictional patient and the categories to query; it expires 15 minutes " +
    "after creation. An application holds at most 20 active (not expired, not revoked) sessions: the 21st is 429 session_limit.",
  body: createTefcaSessionBodySchema,
  bodyDescription: "The fixed patient's id and the categories; any demographics is synthetic_patient_required.",
  bodyExample: () => ({ patientId: "tefca-synthetic-rosa", categories: ["medications", "allergies"] }),
  headers: [HEADER.etag],
  success: { status: 201, description: "The new session, started.", schema: tefcaSessionSchema, example: () => exampleSession() },
  errors: ["sandbox_only", "synthetic_patient_required", "invalid_categories", "app_scope_exceeded", "app_inactive", "session_limit", "tefca_sandbox_unavailable"],
});

export const getTefcaSessionOperation = defineOperation({
  ...common,
  method: "GET",
  path: "/tefca/sessions/{sessionId}",
  operationId: "getTefcaSession",
  summary: "Read a TEFCA session",
  description: "Its state (expired once 15 minutes have passed), discovered documents and selection. The ETag header carries its version.",
  params: sessionParams,
  headers: [HEADER.etag],
  success: {
    status: 200,
    description: "The session.",
    schema: tefcaSessionSchema,
    example: () => exampleSession({ state: "discovered", documents: exampleDocuments(), version: 1 }),
  },
  errors: SESSION_ERRORS,
});

export const discoverTefcaDocumentsOperation = defineOperation({
  ...sessionChangeCommon,
  method: "POST",
  path: "/tefca/sessions/{sessionId}/discover",
  operationId: "discoverTefcaDocuments",
  summary: "Discover the patient's documents across the network",
  description:
    "From started, or again from discovered. Finds the document groups (doc_) in the session's categories at every " +
    "participant; an exchange republishes some health systems' resources, so documents at two organizations may carry " +
    "the same resource. Optionally send If-Match with the session's ETag.",
  body: discoverBodySchema,
  bodyDescription: "Optionally the fixed patient's id; an empty body will do.",
  bodyExample: () => ({ patientId: "tefca-synthetic-rosa" }),
  success: {
    status: 200,
    description: "The session, discovered, with its documents.",
    schema: tefcaSessionSchema,
    example: () => exampleSession({ state: "discovered", documents: exampleDocuments(), version: 1 }),
  },
  errors: [...CHANGE_ERRORS, "app_scope_changed"],
});

export const retrieveTefcaDocumentsOperation = defineOperation({
  ...sessionChangeCommon,
  method: "POST",
  path: "/tefca/sessions/{sessionId}/retrieve",
  operationId: "retrieveTefcaDocuments",
  summary: "Retrieve selected documents' FHIR R4 resources",
  description:
    "From discovered only, once: the selection then completes and changes only in a new session (invalid_state). " +
    "documentIds must be non-empty, without repeats and from this session's discovery (invalid_documents). Of two " +
    "concurrent retrieves, one succeeds and the other answers session_changed.",
  body: retrieveBodySchema,
  bodyDescription: "The documents to retrieve.",
  bodyExample: () => ({ documentIds: ["doc_cvh0allergies0001"] }),
  success: {
    status: 200,
    description: "The session, retrieved, and each selected document's FHIR R4 resources.",
    schema: tefcaRetrievalSchema,
    example: () => ({
      object: "tefca_retrieval",
      session: exampleSession({ state: "retrieved", documents: exampleDocuments(), selectedDocumentIds: ["doc_cvh0allergies0001"], retrievedResourceCount: 1, version: 2 }),
      documents: [{ documentId: "doc_cvh0allergies0001", organizationId: "cedar-valley-health", category: "allergies", resources: [exampleAllergy().resource] }],
    }),
  },
  errors: [...CHANGE_ERRORS, "app_scope_changed", "invalid_documents"],
});

export const exportTefcaRecordsOperation = defineOperation({
  ...common,
  method: "GET",
  path: "/tefca/sessions/{sessionId}/export",
  operationId: "exportTefcaRecords",
  summary: "Export the retrieved records",
  description:
    "After a successful retrieval (before it: records_unavailable). format=fhir (default) answers a FHIR R4 collection " +
    "Bundle of every retrieved resource once; format=normalized the same records in the platform's categories. A revoked " +
    "or expired session has nothing to export (invalid_state).",
  params: sessionParams,
  query: exportQuerySchema,
  headers: [HEADER.etag],
  success: {
    status: 200,
    description: "The export.",
    schema: tefcaExportSchema,
    example: () => ({
      resourceType: "Bundle",
      id: "tfs-4Kd8Lm2Np6Qr0St4Uv8Wx2Yz-export-2",
      meta: { lastUpdated: "2026-11-23T10:14:00.000Z" },
      type: "collection",
      timestamp: "2026-11-23T10:15:00.000Z",
      entry: [{ fullUrl: exampleAllergy().fullUrl, resource: exampleAllergy().resource }],
    }),
  },
  errors: [...SESSION_ERRORS, "app_scope_changed", "invalid_state", "records_unavailable"],
});

export const revokeTefcaSessionOperation = defineOperation({
  ...sessionChangeCommon,
  method: "POST",
  path: "/tefca/sessions/{sessionId}/revoke",
  operationId: "revokeTefcaSession",
  summary: "Revoke a TEFCA session and clear its results",
  description: "From any state but expired; revoking a revoked session changes nothing. The session no longer counts as active.",
  body: revokeBodySchema,
  bodyDescription: "No fields; an empty body will do.",
  bodyExample: () => ({}),
  success: {
    status: 200,
    description: "The session, revoked, with its documents, selection and results cleared.",
    schema: tefcaSessionSchema,
    example: () => exampleSession({ state: "revoked", version: 3 }),
  },
  errors: CHANGE_ERRORS,
});

export const TEFCA_OPERATIONS = [
  getTefcaConfigOperation,
  createTefcaSessionOperation,
  getTefcaSessionOperation,
  discoverTefcaDocumentsOperation,
  retrieveTefcaDocumentsOperation,
  exportTefcaRecordsOperation,
  revokeTefcaSessionOperation,
] as const;
