/** The response contract date every /api/v1 response carries (SPEC.md Versioning). */
export const SERVICE_VERSION = "2026-09-22";

export const HEADER = {
  serviceVersion: "Service-Version",
  requestId: "Request-Id",
  idempotencyKey: "Idempotency-Key",
  idempotentReplayed: "Idempotent-Replayed",
  retryAfter: "Retry-After",
  rateLimit: "RateLimit",
  rateLimitPolicy: "RateLimit-Policy",
} as const;

/** Upper bound on any request body (SPEC.md Limits). */
export const MAX_BODY_BYTES = 64 * 1024;
