import PgBoss from "pg-boss";

export const LIFECYCLE_QUEUE = "lifecycle";
/** How often the lifecycle cycles run across the whole deployment (one job per window, whatever the instances). */
export const LIFECYCLE_INTERVAL_SECONDS = 30;

/**
 * A started pg-boss instance on the platform's database. pg-boss keeps its tables in its own `pgboss` schema and
 * migrates them itself, so any number of app and worker processes share one queue through PostgreSQL.
 */
export async function startQueue(databaseUrl: string): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: databaseUrl, application_name: "chartkey-worker", max: 4 });
  // pg-boss reports transient connection trouble as events; an unhandled `error` event would crash the process.
  boss.on("error", (error) => queueErrors.push(error));
  await boss.start();
  await boss.createQueue(LIFECYCLE_QUEUE, { name: LIFECYCLE_QUEUE, policy: "singleton", retryLimit: 0, expireInSeconds: 120 });
  return boss;
}

/** Errors pg-boss raised in the background, drained by the worker's logger. */
export const queueErrors: Error[] = [];
