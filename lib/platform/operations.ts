import { defineOperation, PLATFORM_PROFILE } from "@/lib/api";
import { SERVICE_VERSION } from "@/lib/http";
import { healthResponseSchema } from "./schemas";

export const getHealthOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "GET",
  path: "/health",
  operationId: "getHealth",
  tag: "Platform",
  summary: "Report API availability",
  description: "Needs no key. Answers 503 with the same body when a dependency is unreachable.",
  auth: "none",
  success: {
    status: 200,
    description: "The API is available.",
    schema: healthResponseSchema,
    example: () => ({ status: "ok", version: SERVICE_VERSION, checks: { database: "ok" } }),
  },
  otherResponses: [
    {
      status: 503,
      description: "A dependency is unreachable.",
      schema: healthResponseSchema,
      example: () => ({ status: "unavailable", version: SERVICE_VERSION, checks: { database: "unreachable" } }),
    },
  ],
  errors: [],
});
