import { z } from "zod";
import { defineOperation, pathId, PLATFORM_PROFILE } from "@/lib/api";
import { agentCredentialSchema, issueCredentialBodySchema, issuedCredentialSchema } from "./schemas";

const exampleCredential = () => ({
  object: "agent_credential",
  id: "cred_6Rt2Wq8Lm4Xk1Vb9Nc3Hd7Pz",
  subject: "u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd",
  receiptId: "cr_8Jd2Ks5Lq9Wm3Xn6Bv1Zc4Tf",
  categories: ["medications", "labs"],
  operations: ["get_health_record", "get_category_records"],
  purpose: "Summarize current medications before the 3pm telehealth visit",
  expiresAt: "2026-11-23T09:27:00.000Z",
  createdAt: "2026-11-23T09:12:00.000Z",
  revokedAt: null,
});

export const createAgentCredentialOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "POST",
  path: "/agent-credentials",
  operationId: "createAgentCredential",
  tag: "Platform",
  summary: "Issue a delegated credential for an AI agent",
  description:
    "Application key only. A short-lived REST credential for one subject that shares records now: it may read the " +
    "categories and call the operations given, as Authorization: Bearer ck_agent_..., until expiresAt, and no longer " +
    "than its parent key and the subject's receipt. It never approves consent. The token is shown only in this answer. " +
    "Honours Idempotency-Key (a replay omits the token).",
  auth: "key",
  body: issueCredentialBodySchema,
  bodyDescription: "The subject, what it may read, why, and for how long.",
  bodyExample: () => ({
    subject: "u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd",
    categories: ["medications", "labs"],
    purpose: "Summarize current medications before the 3pm telehealth visit",
    durationSeconds: 900,
    operations: ["get_health_record", "get_category_records"],
  }),
  idempotent: true,
  success: {
    status: 201,
    description: "The credential and its token.",
    schema: issuedCredentialSchema,
    example: () => ({ ...exampleCredential(), token: "ck_agent_Jx3Lq8Wm2Rt5Vb9Nc4Hd7PzKs1Fy6Gu0Ea3Io8UwQe" }),
  },
  errors: ["invalid_grant", "invalid_duration", "invalid_categories", "not_found"],
});

export const revokeAgentCredentialOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "DELETE",
  path: "/agent-credentials/{credentialId}",
  operationId: "revokeAgentCredential",
  tag: "Platform",
  summary: "Revoke a delegated credential",
  description: "Its next request answers 401 invalid_agent_token. Revoking twice is harmless; another application's id is 404.",
  auth: "key",
  params: z.object({ credentialId: pathId("cred_", { resource: "credential", description: "The credential id (cred_).", example: "cred_6Rt2Wq8Lm4Xk1Vb9Nc3Hd7Pz" }) }),
  success: {
    status: 200,
    description: "The revoked credential.",
    schema: agentCredentialSchema,
    example: () => ({ ...exampleCredential(), revokedAt: "2026-11-23T09:15:00.000Z" }),
  },
  errors: ["not_found"],
});
