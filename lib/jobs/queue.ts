import PgBoss from "pg-boss";
import { JOBS } from "./registered-jobs";
import { assertDistinctQueues, type JobDefinition } from "./registry";

/**
 * A started pg-boss instance on the platform's database with a queue for every registered job. pg-boss keeps its
 * tables in its own `pgboss` schema and migrates them itself, so any number of app and worker processes share one
 * queue through PostgreSQL.
 */
export async function startQueue(databaseUrl: string, jobs: readonly JobDefinition[] = JOBS): Promise<PgBoss> {
  assertDistinctQueues(jobs);
  const boss = new PgBoss({ connectionString: databaseUrl, application_name: "chartkey-worker", max: 4 });
  // pg-boss reports transient connection trouble as events; an unhandled `error` event would crash the process.
  boss.on("error", (error) => queueErrors.push(error));
  await boss.start();
  for (const job of jobs) {
    // createQueue leaves an existing queue as it was, so the update carries a changed policy to deployed
    // databases. pg-boss's update treats a missing policy as `standard`, hence the explicit default.
    const policy = { ...job.policy, policy: job.policy.policy ?? "standard" };
    await boss.createQueue(job.queue, { name: job.queue, ...policy });
    await boss.updateQueue(job.queue, { name: job.queue, ...policy });
  }
  return boss;
}

/** Errors pg-boss raised in the background, drained by the worker's logger. */
export const queueErrors: Error[] = [];
