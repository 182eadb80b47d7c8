import pg from "pg";
import { startTsxProcess, type TsxProcess } from "@/scripts/tsx-process";

/** A platform process a fault test starts, kills and starts again. */
export type TestProcess = TsxProcess;

/** `npm run worker` on the test's database. */
export const startWorkerProcess = (env: Record<string, string> = {}) => startTsxProcess("scripts/worker.ts", env, /Chartkey worker running/);

/** The API server of `CHARTKEY_WORKER=off npm start` on `port` (test/run-platform-server.ts). */
export const startApiProcess = (port: number, env: Record<string, string> = {}) => startTsxProcess("test/run-platform-server.ts", { PORT: String(port), ...env }, /serving/);

/**
 * Lets the clock run past the expiry of the jobs a killed worker held: pg-boss keeps them `active` until
 * `started_on + expire_in` (10 minutes for an import) and then retries them on the next maintenance cycle of any
 * live instance. The test moves their start back past the expiry instead of waiting, then runs that cycle.
 * Returns how many jobs were active.
 */
export async function expireJobsOfDeadWorkers(databaseUrl: string, maintain: () => Promise<void>): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query(`UPDATE pgboss.job SET started_on = now() - expire_in - interval '1 second' WHERE state = 'active'`);
    await maintain();
    return rowCount ?? 0;
  } finally {
    await client.end();
  }
}
