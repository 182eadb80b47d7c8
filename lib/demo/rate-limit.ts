import { addressLimit, type RateLimitPolicy } from "@/lib/http";

/** docs/contract.md, Limits: 120 requests per minute per client address and API instance. */
export const DEMO_POLICY: RateLimitPolicy = { name: "demo", points: 120, windowSeconds: 60 };

// In memory on purpose: the spec limits the demo per API instance, and the demo must run without a database.
/** Consumes one request of the caller's address; throws 429 `rate_limited` with Retry-After when spent. */
export const consumeDemoRateLimit = addressLimit(DEMO_POLICY);
