import { syncConcurrency, syncIntervalMinutes } from "@/lib/config";
import { db, type Prisma } from "@/lib/db";
import type { JobDefinition } from "@/lib/jobs";
import { log } from "@/lib/log";
import { QUEUE } from "@/lib/queue";
import { REAUTHORIZATION_CODES, REAUTHORIZATION_ERROR_PREFIXES, SourceError } from "@/lib/sources";
import { importSource } from "./import-job";

/** Each next sync lands within ±10% of its delay, so sources connected together do not all sync together. */
export const SYNC_JITTER = 0.1;
/** However many scheduled imports of a source fail in a row, the next one is tried within a week. */
export const MAX_SYNC_BACKOFF_MS = 7 * 24 * 60 * 60 * 1000;
/** How long an import may run before the schedule treats it as abandoned (the import job's own expiry). */
const RUNNING_IMPORT_MS = 10 * 60 * 1000;
/** Due sources one pass takes on per allowed concurrent import, so one pass ends well within the job's expiry. */
const PASS_SIZE_PER_SLOT = 10;

export type SyncClock = {
  /** The time the pass runs at (default: now). Tests move it instead of sleeping. */
  now?: Date;
  /** A number in [0, 1) that places each next sync within its jitter (default Math.random). */
  random?: () => number;
  intervalMs?: number;
  /** Scheduled imports running at once (default CHARTKEY_SYNC_CONCURRENCY). */
  concurrency?: number;
};

/** `delayMs` after `from`, moved by up to ±SYNC_JITTER of it. */
export function jittered(from: Date, delayMs: number, random: () => number = Math.random): Date {
  return new Date(from.getTime() + delayMs * (1 - SYNC_JITTER + 2 * SYNC_JITTER * random()));
}

/**
 * The delay before the next scheduled import after `failures` failed ones in a row: the interval, doubled per
 * failure, capped at a week (or the interval, when that is longer). A source a patient must reconnect is so asked
 * about rarely, and a provider that is down is not hammered.
 */
export function syncDelayMs(intervalMs: number, failures: number): number {
  return Math.min(intervalMs * 2 ** failures, Math.max(MAX_SYNC_BACKOFF_MS, intervalMs));
}

/**
 * The sources continuous sync keeps current: live sources connected under an application that has continuous sync
 * and is not suspended, whose subject has an active, unexpired share receipt, and whose last import did not end in
 * `reauthorization_required` (its health system refused its tokens: no import can succeed until the patient signs in
 * again through Connect, which clears the failure and puts the source back on the schedule). Sandbox sources change
 * only when the sandbox advances them (`records.advance`, design §6 Sources), which imports them at once.
 */
function scheduledSources(now: Date): Prisma.SourceWhereInput {
  return {
    connected: true,
    OR: [{ lastError: null }, { AND: REAUTHORIZATION_ERROR_PREFIXES.map((prefix) => ({ NOT: { lastError: { startsWith: prefix } } })) }],
    subject: {
      environment: "live",
      application: { syncMode: "continuous", status: { not: "suspended" } },
      consentReceipts: { some: { status: "active", expiresAt: { gt: now } } },
    },
  };
}

export type SyncPass = { stopped: number; scheduled: number; synced: string[]; failed: string[] };

/**
 * One pass of continuous sync, run by the `continuous-sync` job every minute (and by tests with their own clock):
 * 1. a source whose receipt ended (revoked, expired), whose application was suspended or left continuous sync, that
 *    was disconnected, or that needs the patient to sign in again, loses its next sync: the schedule stops;
 * 2. a source newly in scope gets its first next sync, one jittered interval after its last one;
 * 3. due sources are imported through the import job's code, at most `concurrency` at once. Each import records
 *    the source's state and sends `records.updated` or one `sync.failed` (run-source-import.ts); a success resets
 *    the failure count and schedules the next sync one interval on, a failure backs off (`syncDelayMs`).
 * A due source's next sync is moved before its import starts, so a worker dying mid-pass delays it by one interval
 * rather than repeating it in a loop.
 */
export async function runDueSyncs(clock: SyncClock = {}): Promise<SyncPass> {
  const now = clock.now ?? new Date();
  const random = clock.random ?? Math.random;
  const intervalMs = clock.intervalMs ?? syncIntervalMinutes() * 60_000;
  const concurrency = clock.concurrency ?? syncConcurrency();
  const inScope = scheduledSources(now);

  const stopped = await db().source.updateMany({ where: { nextSyncAt: { not: null }, NOT: inScope }, data: { nextSyncAt: null } });

  const unscheduled = await db().source.findMany({ where: { ...inScope, nextSyncAt: null }, select: { id: true, lastSyncedAt: true } });
  for (const source of unscheduled) {
    await db().source.updateMany({ where: { id: source.id, nextSyncAt: null }, data: { nextSyncAt: jittered(source.lastSyncedAt ?? now, intervalMs, random) } });
  }

  const due = await db().source.findMany({
    where: {
      ...inScope,
      nextSyncAt: { lte: now },
      // An import the Connect flow or a retry is running now is left to finish; the next pass sees the source again.
      imports: { none: { status: "running", startedAt: { gt: new Date(now.getTime() - RUNNING_IMPORT_MS) } } },
    },
    orderBy: [{ nextSyncAt: "asc" }, { id: "asc" }],
    take: concurrency * PASS_SIZE_PER_SLOT,
    select: { id: true, syncFailures: true },
  });
  const pass: SyncPass = { stopped: stopped.count, scheduled: unscheduled.length, synced: [], failed: [] };

  const syncOne = async (source: (typeof due)[number]) => {
    await db().source.update({ where: { id: source.id }, data: { nextSyncAt: jittered(now, intervalMs, random) } });
    try {
      await importSource(source.id, { lastAttempt: true, trigger: "schedule" });
      await db().source.update({ where: { id: source.id }, data: { syncFailures: 0 } });
      pass.synced.push(source.id);
    } catch (error) {
      const failures = source.syncFailures + 1;
      const message = error instanceof Error ? error.message : String(error);
      // Tokens refused: retrying cannot succeed, so the source leaves the schedule until the patient reconnects.
      const reauthorize = error instanceof SourceError && REAUTHORIZATION_CODES.includes(error.code);
      await db().source.update({ where: { id: source.id }, data: { syncFailures: failures, nextSyncAt: reauthorize ? null : jittered(now, syncDelayMs(intervalMs, failures), random) } });
      if (reauthorize) log.info({ sourceId: source.id, failures, err: message }, "scheduled source sync needs the patient to sign in again; not scheduled until they reconnect");
      else log.info({ sourceId: source.id, failures, err: message }, "scheduled source sync failed; backing off");
      pass.failed.push(source.id);
    }
  };
  const queue = [...due];
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let source = queue.shift(); source; source = queue.shift()) await syncOne(source);
    }),
  );
  return pass;
}

/**
 * Continuous sync's periodic job. `singleton` keeps passes from overlapping across workers, so the concurrency
 * limit holds for the whole deployment; no retries, as the next minute's pass picks up whatever is still due.
 */
export const continuousSyncJob = {
  queue: QUEUE.continuousSync,
  policy: { policy: "singleton", retryLimit: 0, expireInSeconds: 3600 },
  everySeconds: 60,
  async handler() {
    await runDueSyncs();
  },
} satisfies JobDefinition;
