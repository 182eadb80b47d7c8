import { RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { pgPool } from "@/lib/db/client";
import { ApiError } from "./api-error";
import { HEADER } from "./headers";

export type RateLimitPolicy = { name: string; points: number; windowSeconds: number };

/** SPEC.md Limits: 300 requests per minute per key. */
export const KEY_POLICY: RateLimitPolicy = { name: "key", points: 300, windowSeconds: 60 };

export type RateLimitOutcome = { headers: Record<string, string> };

const limiters = new Map<string, RateLimiterAbstract>();

/**
 * The limiter for a policy, stored in PostgreSQL (`rate_limits`, created by the migrations) so that every app
 * instance counts against the same window. Expired rows are pruned by the lifecycle job, not by a timer here.
 */
function postgresLimiter(policy: RateLimitPolicy): RateLimiterAbstract {
  let limiter = limiters.get(policy.name);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      storeClient: pgPool(),
      storeType: "pool",
      tableName: "rate_limits",
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix: policy.name,
      points: policy.points,
      duration: policy.windowSeconds,
    });
    limiters.set(policy.name, limiter);
  }
  return limiter;
}

/** Consumes one point for `key`; throws 429 `rate_limited` with Retry-After when the window is spent. */
export async function consumeRateLimit(
  policy: RateLimitPolicy,
  key: string,
  limiter: RateLimiterAbstract = postgresLimiter(policy),
): Promise<RateLimitOutcome> {
  try {
    const result = await limiter.consume(key, 1);
    return { headers: rateLimitHeaders(policy, result) };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const headers = rateLimitHeaders(policy, rejection);
    throw new ApiError("rate_limited", `Too many requests: at most ${policy.points} per ${policy.windowSeconds} seconds.`, {
      headers: { ...headers, [HEADER.retryAfter]: String(secondsUntil(rejection)) },
    });
  }
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(policy: RateLimitPolicy, result: RateLimiterRes): Record<string, string> {
  return {
    [HEADER.rateLimitPolicy]: `"${policy.name}";q=${policy.points};w=${policy.windowSeconds}`,
    [HEADER.rateLimit]: `"${policy.name}";r=${Math.max(0, result.remainingPoints)};t=${secondsUntil(result)}`,
  };
}

function secondsUntil(result: RateLimiterRes): number {
  return Math.max(1, Math.ceil(result.msBeforeNext / 1000));
}
