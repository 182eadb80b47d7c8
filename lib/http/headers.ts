/** The response contract date every /api/v1 response carries (docs/contract.md, Versioning). */
export const SERVICE_VERSION = "2026-09-22";

export const HEADER = {
  serviceVersion: "Service-Version",
  requestId: "Request-Id",
  idempotencyKey: "Idempotency-Key",
  idempotentReplayed: "Idempotent-Replayed",
  retryAfter: "Retry-After",
  rateLimit: "RateLimit",
  rateLimitPolicy: "RateLimit-Policy",
  etag: "ETag",
  ifMatch: "If-Match",
} as const;

/** Upper bound on any request body (docs/contract.md, Limits). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Headers the platform's own HTTP server sets on each request before Next.js sees it, after removing any a client
 * sent: the client's network address as the server determined it, and the request id the response will carry.
 */
export const INTERNAL_HEADER = {
  clientAddress: "x-chartkey-client-address",
  requestId: "x-chartkey-request-id",
} as const;
