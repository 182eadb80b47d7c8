import { createAgentCredentialOperation, revokeAgentCredentialOperation } from "@/lib/agents";
import type { OperationDeclaration } from "@/lib/api";
import { getAppOperation } from "@/lib/applications";
import { cancelConnectSessionOperation, createConnectSessionOperation, getConnectSessionOperation } from "@/lib/connect";
import { CONFORMANCE_OPERATIONS } from "@/lib/conformance";
import { getConsentReceiptOperation } from "@/lib/consent";
import { HEADER, SERVICE_VERSION } from "@/lib/http";
import { getHealthOperation } from "@/lib/platform";
import { simulateConnectSessionOperation, triggerSandboxEventOperation } from "@/lib/simulation";
import { FHIR_EXPORT_OPERATIONS, FHIR_OPERATIONS } from "@/lib/fhir-api";
import { TEFCA_OPERATIONS } from "@/lib/tefca";
import { getHealthRecordOperation, listCategoryRecordsOperation, listRecordChangesOperation, listUsersOperation } from "@/lib/users";
import { webhookEventSchema } from "@/lib/webhooks";
import { buildOpenApiDocument } from "./build-document";
import type { OpenApiDocument } from "./document-types";
import { COMMON_HEADERS } from "./common-headers";
import { getPlatformOpenApiOperation } from "./operations";
import { platformMcpOperation } from "@/lib/mcp";
import { processState } from "@/lib/process-state";

/** Every /api/v1 operation, in the order the document lists them. Each domain's declarations join this list. */
export const PLATFORM_OPERATIONS: readonly OperationDeclaration[] = [
  getHealthOperation,
  getAppOperation,
  getPlatformOpenApiOperation,
  createAgentCredentialOperation,
  revokeAgentCredentialOperation,
  createConnectSessionOperation,
  getConnectSessionOperation,
  cancelConnectSessionOperation,
  listUsersOperation,
  getHealthRecordOperation,
  listCategoryRecordsOperation,
  listRecordChangesOperation,
  getConsentReceiptOperation,
  simulateConnectSessionOperation,
  triggerSandboxEventOperation,
  ...TEFCA_OPERATIONS,
  ...CONFORMANCE_OPERATIONS,
  ...FHIR_OPERATIONS,
  ...FHIR_EXPORT_OPERATIONS,
  platformMcpOperation,
];

/** The OpenAPI 3.1 document of the keyed API under /api/v1, built once per process. */
export function getPlatformOpenApi(): OpenApiDocument {
  return processState("openapi.platform-document", () => buildOpenApiDocument({
    title: "Chartkey API",
    version: SERVICE_VERSION,
    description:
      "Patient-authorized health records: Connect sessions, consent-filtered normalized records and change feeds. " +
      "Authenticate with Authorization: Bearer <API_KEY> from a server, never from a browser or mobile app. " +
      "Sandbox keys start with ck_test_, live keys with ck_live_. Every response carries Service-Version.",
    servers: [{ url: "/api/v1", description: "This deployment" }],
    tags: [
      { name: "Platform", description: "Availability, the calling application, delegated credentials for AI agents and this document." },
      { name: "Connect", description: "Sessions that send a patient through the hosted consent flow." },
      { name: "Records", description: "Subjects, their consent-filtered records, change feeds and consent receipts." },
      { name: "Sandbox", description: "Sandbox keys only: simulated Connect sessions and controls on the synthetic users they create." },
      {
        name: "FHIR",
        description:
          "A consented subject's records as FHIR R4 (US Core), as their health systems sent them: metadata, Patient, search, read and " +
          "Patient/$everything under /api/v1/fhir, with the same keys, consent and limits as the JSON records. Errors are OperationOutcome.",
      },
      { name: "MCP", description: "The Model Context Protocol server: each tool mirrors one operation of this API." },
      {
        name: "TEFCA",
        description:
          "Sandbox keys only: rehearse a nationwide-network (TEFCA) query against one fixed fictional patient: start a session, " +
          "discover documents, retrieve a selection, export it as FHIR R4, revoke.",
      },
      {
        name: "Conformance",
        description:
          "Sandbox keys only: grade an integration before go-live. A run drives a Connect session, forced 429s, a consent " +
          "revocation and webhook probes against it, then shares the verdict at a public report link.",
      },
    ],
    operations: PLATFORM_OPERATIONS,
    webhooks: {
      event: {
        operationId: "receiveEvent",
        tag: "Platform",
        summary: "An event sent to the application's webhook URL",
        description:
          "Signed with Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature headers) with the application's whsec_ signing " +
          "secret; retried with exponential backoff for 24 hours (8 attempts). No ordering guarantee: each event carries its timestamp, " +
          "and the change feed is the source of truth for records.",
        schema: webhookEventSchema,
      },
    },
    headers: {
      ...COMMON_HEADERS,
      [HEADER.etag]: {
        description: 'The resource\'s version as a strong entity tag, e.g. "3"; send it back in If-Match to change the resource only if it is unchanged.',
        schema: { type: "string" },
      },
      "Content-Location": {
        description: "A bulk export's kick-off: the status URL to poll (FHIR Bulk Data Access IG).",
        schema: { type: "string", format: "uri" },
      },
      "X-Progress": {
        description: "A bulk export in progress: how far it is (queued, or N of M subjects, K resources).",
        schema: { type: "string" },
      },
    },
    responseHeaders: [HEADER.serviceVersion, HEADER.requestId],
    security: {
      name: "apiKey",
      scheme: {
        type: "http",
        scheme: "bearer",
        description: "An API key: ck_test_... (sandbox) or ck_live_... (live).",
      },
    },
  }));
}
