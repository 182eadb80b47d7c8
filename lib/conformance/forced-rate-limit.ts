import { pgPool } from "@/lib/db";
import { ApiError, HEADER } from "@/lib/http";
import { FORCED_RATE_LIMITS, FORCED_RETRY_AFTER_SECONDS } from "./limits";

/**
 * Answers the run key's first two record reads 429 `rate_limited` with Retry-After; the grader then checks each was
 * retried no sooner. Reads are possible only once the run's session completed, and the session phase is graded
 * for a moment after that, so its reads count too. Keys of no run cost nothing;
 * a run key's read costs one statement, which counts the forced 429 only while the run allows one, so concurrent
 * reads never force a third.
 */
export async function forceRunRateLimit(key: { conformanceRunId: string | null }, requestId: string, now = new Date()): Promise<void> {
  if (!key.conformanceRunId) return;
  const forced = await pgPool().query({
    name: "chartkey-conformance-force-429",
    text: `UPDATE "ConformanceRun"
           SET "forcedRateLimits" = "forcedRateLimits" + 1,
               forced = forced || jsonb_build_array(jsonb_build_object('requestId', $2::text, 'at', $3::text, 'retryAfterSeconds', $4::int)),
               "updatedAt" = now()
           WHERE id = $1 AND status = 'open' AND phase IN ('session', 'rate_limits') AND "forcedRateLimits" < $5
           RETURNING id`,
    values: [key.conformanceRunId, requestId, now.toISOString(), FORCED_RETRY_AFTER_SECONDS, FORCED_RATE_LIMITS],
  });
  if (forced.rowCount === 0) return;
  throw new ApiError("rate_limited", `Rate limit forced by conformance run ${key.conformanceRunId}: retry after ${FORCED_RETRY_AFTER_SECONDS} seconds.`, {
    headers: { [HEADER.retryAfter]: String(FORCED_RETRY_AFTER_SECONDS) },
  });
}
