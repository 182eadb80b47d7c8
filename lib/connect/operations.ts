import { z } from "zod";
import { defineOperation, pathId, PLATFORM_PROFILE } from "@/lib/api";
import { connectSessionSchema, createSessionBodySchema } from "./schemas";

const sessionParams = z.object({
  sessionId: pathId("cs_", { resource: "Connect session", description: "The session id (cs_).", example: "cs_7Hk2Pq9Xm4Lw1Rt8Nb5Vc3Dz" }),
});

const exampleSession = () => ({
  object: "connect_session",
  id: "cs_7Hk2Pq9Xm4Lw1Rt8Nb5Vc3Dz",
  status: "pending",
  environment: "sandbox",
  categories: ["medications", "allergies", "labs"],
  grantedCategories: [],
  externalUserId: "user-123",
  connectUrl: "https://chartkey.example/connect/3q2-7wXfKcL0o9YbJm1R8sTzUeV4hAaG6nDpQyWi5Es",
  redirectUrl: "http://localhost:8080/connected",
  expiresAt: "2026-11-23T10:12:00.000Z",
  createdAt: "2026-11-23T09:12:00.000Z",
  completedAt: null,
  subject: null,
  receiptId: null,
  sources: [],
  simulation: null,
});

export const createConnectSessionOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "POST",
  path: "/connect/sessions",
  operationId: "createConnectSession",
  tag: "Connect",
  summary: "Create a Connect session",
  description: "Send the patient to connectUrl within 60 minutes. Honours Idempotency-Key.",
  auth: "key",
  body: createSessionBodySchema,
  bodyDescription: "The categories to ask for, and optionally your user id, a redirect URL and the share's length.",
  idempotent: true,
  success: { status: 201, description: "The new session.", schema: connectSessionSchema, example: exampleSession },
  errors: ["invalid_categories", "app_scope_exceeded"],
});

export const getConnectSessionOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "GET",
  path: "/connect/sessions/{sessionId}",
  operationId: "getConnectSession",
  tag: "Connect",
  summary: "A Connect session and its sources' sync state",
  auth: "key",
  params: sessionParams,
  success: { status: 200, description: "The session.", schema: connectSessionSchema, example: exampleSession },
  errors: ["not_found"],
});

export const cancelConnectSessionOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "POST",
  path: "/connect/sessions/{sessionId}/cancel",
  operationId: "cancelConnectSession",
  tag: "Connect",
  summary: "Cancel an incomplete session",
  description: "A completed session answers 409 session_completed; cancelling twice is harmless.",
  auth: "key",
  params: sessionParams,
  success: { status: 200, description: "The session.", schema: connectSessionSchema, example: () => ({ ...exampleSession(), status: "cancelled" }) },
  errors: ["not_found", "session_completed"],
});
