import PgBoss from "pg-boss";
import { assertDistinctQueues, isWorkerLoop, type JobDefinition, type WorkerJob } from "./registry";
import { processState } from "@/lib/process-state";

/**
 * A started pg-boss instance on the platform's database with a queue for every registered job. pg-boss keeps its
 * tables in its own `pgboss` schema and migrates them itself, so any number of app and worker processes share one
 * queue through PostgreSQL. Loops of the worker's own (`WorkerLoop`) have no queue.
 */
export async function startQueue(databaseUrl: string, given: readonly WorkerJob[]): Promise<PgBoss> {
  assertDistinctQueues(given);
  const jobs = given.filter((job): job is JobDefinition => !isWorkerLoop(job));
  const boss = new PgBoss({ connectionString: databaseUrl, application_name: "chartkey-worker", max: 4 });
  // pg-boss reports transient connection trouble as events; an unhandled `error` event would crash the process.
  boss.on("error", (error) => queueErrors.push(error));
  await boss.start();
  for (const job of jobs) {
    // createQueue leaves an existing queue as it was, so the update carries a changed policy to deployed
    // databases. pg-boss's update treats a missing policy as `standard`, hence the explicit default.
    const policy = { ...job.policy, policy: job.policy.policy ?? "standard" };
    await retryOnDeadlock(() => boss.createQueue(job.queue, { name: job.queue, ...policy }));
    await retryOnDeadlock(() => boss.updateQueue(job.queue, { name: job.queue, ...policy }));
  }
  return boss;
}

/**
 * Two processes starting at once create the same queues concurrently, and PostgreSQL may end one of them with a
 * deadlock (40P01) between pg-boss's queue row and its partition: the loser tries again once the winner is done.
 */
async function retryOnDeadlock<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if ((error as { code?: string }).code !== "40P01" || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}

/** Errors pg-boss raised in the background, drained by the worker's logger. */
export const queueErrors = processState("jobs.queue-errors", (): Error[] => []);
