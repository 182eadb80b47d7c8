import { BoundedWindowLimiter, rateLimited, rateLimitHeaders, type RateLimitPolicy, requestClientAddress } from "@/lib/http";

/** docs/contract.md, Limits: 120 requests per minute per client address and API instance. */
export const DEMO_POLICY: RateLimitPolicy = { name: "demo", points: 120, windowSeconds: 60 };

// In memory on purpose: the spec limits the demo per API instance, and the demo must run without a database.
// Bounded, so a flood of distinct addresses cannot grow the process.
const limiter = new BoundedWindowLimiter(DEMO_POLICY.points, DEMO_POLICY.windowSeconds * 1000);

/** Consumes one request of the caller's address; throws 429 `rate_limited` with Retry-After when spent. */
export function consumeDemoRateLimit(request: Request): Record<string, string> {
  const outcome = limiter.consume(requestClientAddress(request));
  if (!outcome.allowed) throw rateLimited(DEMO_POLICY, 0, outcome.resetMs);
  return rateLimitHeaders(DEMO_POLICY, outcome.remaining, outcome.resetMs);
}
