import { z } from "zod";
import { defineOperation, pathId, PLATFORM_PROFILE } from "@/lib/api";
import { connectSessionSchema } from "@/lib/connect";
import { sandboxEventBodySchema, sandboxEventResultSchema, simulateBodySchema } from "./schemas";

const sessionParams = z.object({
  sessionId: pathId("cs_", { resource: "Connect session", description: "The session id (cs_).", example: "cs_7Hk2Pq9Xm4Lw1Rt8Nb5Vc3Dz" }),
});
const subjectParams = z.object({
  subject: pathId("u_", {
    resource: "synthetic user",
    description: "A synthetic user's subject (u_) this application's simulation created.",
    example: "u_8wxyocpMfcvtLHgdrNNrjaod",
  }),
});

export const simulateConnectSessionOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "POST",
  path: "/connect/sessions/{sessionId}/simulate",
  operationId: "simulateConnectSession",
  tag: "Sandbox",
  summary: "Complete a pending sandbox session with a synthetic patient",
  description:
    "Sandbox keys only. The scenario's synthetic patient signs in at its health systems (through the same SMART on FHIR client " +
    "and import jobs as a browser sign-in) and consents to the session categories the scenario covers. Poll simulation.state " +
    "(queued, connecting, importing, then completed or failed with simulation.failureCode); for multi-source-overlap, " +
    "source-unavailable and consent-revoked the session reads completed before the second source is attached or consent is " +
    "revoked. Repeating with the same scenario resumes.",
  auth: "key",
  params: sessionParams,
  body: simulateBodySchema,
  bodyDescription: "The scenario.",
  success: {
    status: 200,
    description: "The session with simulation.state.",
    schema: connectSessionSchema,
    example: () => ({
      object: "connect_session",
      id: "cs_7Hk2Pq9Xm4Lw1Rt8Nb5Vc3Dz",
      status: "completed",
      environment: "sandbox",
      categories: ["medications", "allergies"],
      grantedCategories: ["medications", "allergies"],
      externalUserId: null,
      connectUrl: "https://chartkey.example/connect/3q2-7wXfKcL0o9YbJm1R8sTzUeV4hAaG6nDpQyWi5Es",
      redirectUrl: null,
      expiresAt: "2026-11-23T10:12:00.000Z",
      createdAt: "2026-11-23T09:12:00.000Z",
      completedAt: "2026-11-23T09:13:00.000Z",
      subject: "u_lTKlRRMXjZkobuvhcflLD7QC",
      receiptId: "cr_4Fh8Jk2Lm6Np0Qr3St7Uv1Wx",
      sources: [],
      simulation: { scenario: "multi-source-overlap", state: "importing", failureCode: null },
    }),
  },
  errors: ["not_found", "sandbox_only", "invalid_scenario", "invalid_categories", "session_not_simulatable", "sandbox_limit_reached"],
});

export const triggerSandboxEventOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "POST",
  path: "/sandbox/subjects/{subject}/events",
  operationId: "triggerSandboxEvent",
  tag: "Sandbox",
  summary: "Apply a sandbox control to a synthetic user",
  description:
    "Sandbox keys only, for users this application's simulation created. records.advance moves the source to its next phase " +
    "and imports now; consent.revoke revokes each active receipt; consent.expire sets each active receipt's expiry to now " +
    "(consent.expired follows on the lifecycle worker's next cycle); source.fail makes the source's next import fail once " +
    "and runs it now.",
  auth: "key",
  params: subjectParams,
  body: sandboxEventBodySchema,
  bodyDescription: "The control and, for a two-source user, optionally the source.",
  success: {
    status: 200,
    description: "What the control did.",
    schema: sandboxEventResultSchema,
    example: () => ({
      object: "sandbox_event",
      type: "records.advance",
      subject: "u_lTKlRRMXjZkobuvhcflLD7QC",
      sources: [{ sourceId: "src_9Gh3Kl7Mn1Pq5Rs9Tu3Vw7Xy", sourceKey: "primary", providerId: "lakeshore-health", phase: 1, status: "synced", error: null }],
      receipts: [],
    }),
  },
  errors: ["not_found", "sandbox_only", "invalid_event_type", "control_unsupported", "invalid_source", "subject_not_connected"],
});
