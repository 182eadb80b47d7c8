import type PgBoss from "pg-boss";
import { log } from "@/lib/log";
import { LIFECYCLE_CYCLES } from "./cycles";
import { runLifecycle } from "./lifecycle";
import { LIFECYCLE_INTERVAL_SECONDS, LIFECYCLE_QUEUE, queueErrors, startQueue } from "./queue";

export type RunningWorker = { boss: PgBoss; stop: () => Promise<void> };

/**
 * Starts a worker: it handles lifecycle jobs and, every interval, offers the next one. `sendThrottled` admits one
 * job per 30-second window across every instance, so N workers still run each cycle once per window.
 */
export async function startWorker(databaseUrl: string): Promise<RunningWorker> {
  const boss = await startQueue(databaseUrl);
  await boss.work(LIFECYCLE_QUEUE, async () => {
    await runLifecycle(LIFECYCLE_CYCLES);
  });

  const offer = async () => {
    try {
      await boss.sendThrottled(LIFECYCLE_QUEUE, {}, {}, LIFECYCLE_INTERVAL_SECONDS);
    } catch (error) {
      log.warn({ err: (error as Error).message }, "could not schedule the lifecycle job");
    }
    for (const error of queueErrors.splice(0)) log.warn({ err: error.message }, "queue error");
  };
  await offer();
  const timer = setInterval(() => void offer(), (LIFECYCLE_INTERVAL_SECONDS * 1000) / 3);
  timer.unref();

  return {
    boss,
    stop: async () => {
      clearInterval(timer);
      await boss.stop({ graceful: true, timeout: 10_000, wait: true });
    },
  };
}
