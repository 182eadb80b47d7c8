import { db } from "@/lib/db";
import type { LifecycleCycle } from "./lifecycle";

// The platform's bookkeeping rows written by the HTTP layer (request log, idempotency records, rate-limit
// windows) expire here. They sit in lib/jobs rather than beside their writers in lib/http while that folder is
// being rewritten; moving them changes only the imports in scripts/platform-jobs.ts.

const DAY_MS = 24 * 60 * 60 * 1000;
/** Request logs are kept 30 days (docs/contract.md, Limits). */
export const REQUEST_LOG_RETENTION_DAYS = 30;

export const pruneRequestLogs: LifecycleCycle = {
  name: "prune-request-logs",
  run: async (now) => {
    const cutoff = new Date(now.getTime() - REQUEST_LOG_RETENTION_DAYS * DAY_MS);
    return (await db().requestLog.deleteMany({ where: { createdAt: { lt: cutoff } } })).count;
  },
};

export const pruneIdempotencyRecords: LifecycleCycle = {
  name: "prune-idempotency-records",
  run: async (now) => (await db().idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } })).count,
};

/** rate-limiter-flexible stores the window's end in `expire` (epoch ms); rows past it only take space. */
export const pruneRateLimitWindows: LifecycleCycle = {
  name: "prune-rate-limit-windows",
  run: async (now) => (await db().rateLimit.deleteMany({ where: { expire: { lt: BigInt(now.getTime()) } } })).count,
};
