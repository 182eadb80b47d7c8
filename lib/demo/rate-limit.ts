import { RateLimiterMemory } from "rate-limiter-flexible";
import { consumeRateLimit, type RateLimitOutcome, type RateLimitPolicy } from "@/lib/http/rate-limit";
import { clientAddress } from "./client-address";

/** SPEC.md Limits: 120 requests per minute per client address and API instance. */
export const DEMO_POLICY: RateLimitPolicy = { name: "demo", points: 120, windowSeconds: 60 };

// In memory on purpose: the spec limits the demo per API instance, and the demo must run without a database.
const limiter = new RateLimiterMemory({ keyPrefix: DEMO_POLICY.name, points: DEMO_POLICY.points, duration: DEMO_POLICY.windowSeconds });

/** Consumes one request of the caller's address; throws 429 `rate_limited` with Retry-After when spent. */
export function consumeDemoRateLimit(request: Request): Promise<RateLimitOutcome> {
  return consumeRateLimit(DEMO_POLICY, clientAddress(request), limiter);
}
