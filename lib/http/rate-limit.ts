import { RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { counterPool } from "@/lib/db";
import { keyRequestsPerMinute } from "@/lib/config";
import { metrics } from "@/lib/metrics";
import { ApiError } from "./api-error";
import { HEADER } from "./headers";
import { processState } from "@/lib/process-state";

export type RateLimitPolicy = { name: string; readonly points: number; windowSeconds: number };

/**
 * A policy whose points the deployment sets in its environment, read when a limiter is made or a header written
 * rather than when this module is first imported: whichever module imports it first, the value is the environment's.
 */
export function deploymentSetPolicy(name: string, points: () => number, windowSeconds: number): RateLimitPolicy {
  return {
    name,
    get points() {
      return points();
    },
    windowSeconds,
  };
}

/** 300 requests per minute per key (deployment-set: CHARTKEY_RATE_LIMIT_PER_MINUTE). */
export const KEY_POLICY: RateLimitPolicy = deploymentSetPolicy("key", keyRequestsPerMinute, 60);

export type RateLimitOutcome = { headers: Record<string, string> };

const limiters = processState("http.rate-limiters", () => new Map<string, RateLimiterAbstract>());

/**
 * The limiter for a policy, stored in PostgreSQL (`rate_limits`, created by the migrations) so that every app
 * instance counts against the same window. Expired rows are pruned by the lifecycle job, not by a timer here.
 */
export function postgresLimiter(policy: RateLimitPolicy): RateLimiterAbstract {
  let limiter = limiters.get(policy.name);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      // Its windows are counters every request writes: committed without waiting for the disk (see counterPool).
      storeClient: counterPool(),
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
export async function consumeRateLimit(policy: RateLimitPolicy, key: string): Promise<RateLimitOutcome> {
  try {
    const result = await postgresLimiter(policy).consume(key, 1);
    return { headers: rateLimitHeaders(policy, result.remainingPoints, result.msBeforeNext) };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    throw rateLimited(policy, rejection.remainingPoints, rejection.msBeforeNext);
  }
}

/** The 429 a spent window answers, with the RateLimit fields and Retry-After. */
export function rateLimited(policy: RateLimitPolicy, remainingPoints: number, msBeforeNext: number): ApiError {
  metrics().rateLimited.inc({ kind: policy.name });
  return new ApiError("rate_limited", `Too many requests: at most ${policy.points} per ${policy.windowSeconds} seconds.`, {
    headers: {
      ...rateLimitHeaders(policy, remainingPoints, msBeforeNext),
      [HEADER.retryAfter]: String(secondsUntil(msBeforeNext)),
    },
  });
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(policy: RateLimitPolicy, remainingPoints: number, msBeforeNext: number): Record<string, string> {
  return {
    [HEADER.rateLimitPolicy]: `"${policy.name}";q=${policy.points};w=${policy.windowSeconds}`,
    [HEADER.rateLimit]: `"${policy.name}";r=${Math.max(0, remainingPoints)};t=${secondsUntil(msBeforeNext)}`,
  };
}

function secondsUntil(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}
