import type { ErrorCode } from "@/lib/http/error-codes";
import { HEADER } from "@/lib/http/headers";
import { openApiDocumentSchema } from "./common-schemas";
import type { OperationSpec } from "./operation";
import { applicationSchema, healthResponseSchema } from "./platform-schemas";

/** What any keyed operation can answer before its own logic runs (authentication, rate limit, server errors). */
const KEYED_ERRORS: ErrorCode[] = [
  "missing_api_key",
  "invalid_api_key",
  "production_not_enabled",
  "app_suspended",
  "rate_limited",
  "database_error",
  "internal_error",
];

/** Keyed responses report the per-key rate limit. */
const KEYED_HEADERS = [HEADER.rateLimitPolicy, HEADER.rateLimit];

/**
 * Every /api/v1 operation the platform document describes. A new operation is documented by adding its entry
 * here, with the zod schemas its route parses and returns.
 */
export const PLATFORM_OPERATIONS: readonly OperationSpec[] = [
  {
    method: "get",
    path: "/health",
    operationId: "getHealth",
    tag: "Platform",
    summary: "Report API availability",
    description: "Needs no key. Answers 503 with the same body when a dependency is unreachable.",
    auth: "none",
    success: { status: 200, description: "The API is available.", schema: healthResponseSchema },
    otherResponses: [{ status: 503, description: "A dependency is unreachable.", schema: healthResponseSchema }],
    errors: ["internal_error"],
  },
  {
    method: "get",
    path: "/app",
    operationId: "getApp",
    tag: "Platform",
    summary: "Resolve the application and environment of the calling key",
    success: { status: 200, description: "The application the key belongs to.", schema: applicationSchema },
    errors: KEYED_ERRORS,
    headers: KEYED_HEADERS,
  },
  {
    method: "get",
    path: "/openapi.json",
    operationId: "getPlatformOpenApi",
    tag: "Platform",
    summary: "This API's OpenAPI 3.1 document",
    auth: "none",
    success: { status: 200, description: "The OpenAPI document.", schema: openApiDocumentSchema },
    errors: ["internal_error"],
  },
];
