import { BoundedWindowLimiter } from "./bounded-limiter";
import { requestClientAddress } from "./client-address";
import { rateLimited, rateLimitHeaders, type RateLimitPolicy } from "./rate-limit";
import type { RequestHead } from "./request-head";

/**
 * A keyless family's per-address limit: consumes one request of the caller's address or throws 429 `rate_limited`
 * with Retry-After; returns the RateLimit fields. Counted in memory per instance, bounded, so a flood of distinct
 * addresses cannot grow the process.
 */
export function addressLimit(policy: RateLimitPolicy): (request: RequestHead) => Record<string, string> {
  const limiter = new BoundedWindowLimiter(policy.points, policy.windowSeconds * 1000);
  return (request) => {
    const outcome = limiter.consume(requestClientAddress(request));
    if (!outcome.allowed) throw rateLimited(policy, 0, outcome.resetMs);
    return rateLimitHeaders(policy, outcome.remaining, outcome.resetMs);
  };
}
