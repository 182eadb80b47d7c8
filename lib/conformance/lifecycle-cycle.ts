import { db } from "@/lib/db";
import type { LifecycleCycle } from "@/lib/jobs";
import { log } from "@/lib/log";
import { queueRunDriver } from "./drive-run";
import { stopRun } from "./transitions";

/** A run still `creating` this long after its creation belongs to a request that died: it never showed its key. */
const ABANDONED_CREATION_MS = 5 * 60_000;

/**
 * Conformance upkeep: runs without a Connect session 60 minutes after creation expire (key revoked); creations a
 * dead request left half done are removed; reports past their 90 days are deleted with their run (and the run's
 * revoked key); and every open run's job is queued again, so a run whose job was lost still finishes.
 */
export const conformanceRunsCycle = {
  name: "conformance-runs",
  run: async (now: Date) => {
    let affected = 0;
    const due = await db().conformanceRun.findMany({ where: { status: { in: ["creating", "open"] }, connectSessionId: null, expiresAt: { lte: now } }, select: { id: true } });
    for (const run of due) if (await stopRun(run.id, "expired", now)) affected++;

    const gone = {
      OR: [{ reportExpiresAt: { lte: now } }, { status: "creating" as const, createdAt: { lt: new Date(now.getTime() - ABANDONED_CREATION_MS) } }],
    };
    await db().apiKey.deleteMany({ where: { conformanceRun: gone } });
    affected += (await db().conformanceRun.deleteMany({ where: gone })).count;

    const open = await db().conformanceRun.findMany({ where: { status: "open" }, select: { id: true } });
    for (const run of open) {
      await queueRunDriver(run.id).catch((error: unknown) => log.warn({ runId: run.id, err: (error as Error).message }, "could not queue a conformance run's job"));
    }
    return affected;
  },
} satisfies LifecycleCycle;
