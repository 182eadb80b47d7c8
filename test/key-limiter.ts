import type pg from "pg";
import { RateLimiterPostgres } from "rate-limiter-flexible";
import { KEY_POLICY } from "@/lib/http";

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
