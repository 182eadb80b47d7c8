import { log } from "@/lib/log";

/**
 * One periodic piece of upkeep: expiring receipts, purging synthetic patients, pruning logs, .... It returns how
 * many rows it changed. A domain exports its cycles; `scripts/platform-jobs.ts` registers them.
 */
export type LifecycleCycle = { name: string; run: (now: Date) => Promise<number> };

export type CycleOutcome = { name: string; affected: number } | { name: string; error: string };

/**
 * Runs every cycle once, each on its own: one failing cycle is logged and does not stop the others, and the
 * next lifecycle job tries it again.
 */
export async function runLifecycle(cycles: readonly LifecycleCycle[], now = new Date()): Promise<CycleOutcome[]> {
  const outcomes: CycleOutcome[] = [];
  for (const cycle of cycles) {
    try {
      const affected = await cycle.run(now);
      outcomes.push({ name: cycle.name, affected });
      if (affected > 0) log.info({ cycle: cycle.name, affected }, "lifecycle cycle");
    } catch (error) {
      const message = (error as Error).message;
      outcomes.push({ name: cycle.name, error: message });
      log.error({ cycle: cycle.name, err: message }, "lifecycle cycle failed");
    }
  }
  return outcomes;
}
