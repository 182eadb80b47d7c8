import type pg from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError, KEY_POLICY } from "@/lib/http";

/** The per-key limiter as rate-limiter-flexible builds it on its own pool: another app instance's limiter, in tests. */
export function keyLimiterOn(pool: pg.Pool): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: pool,
    storeType: "pool",
    tableName: "rate_limits",
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix: KEY_POLICY.name,
    points: KEY_POLICY.points,
    duration: KEY_POLICY.windowSeconds,
  });
}

/** One request counted by such a limiter: admitted, or refused as `rate_limited` once the window is spent. */
export function consumeOn(limiter: RateLimiterPostgres, keyId: string): Promise<"admitted" | "rate_limited"> {
  return limiter.consume(keyId, 1).then(
    () => "admitted",
    (rejection: unknown) => (rejection instanceof RateLimiterRes ? "rate_limited" : Promise.reject(rejection)),
  );
}

/** What became of a platform request or admission: `admitted`, or the code of the ApiError that refused it. */
export function outcomeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "admitted",
    (error: unknown) => (error instanceof ApiError ? error.code : Promise.reject(error)),
  );
}
