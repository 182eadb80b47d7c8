import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import pg from "pg";

/** A platform process a fault test starts, kills and starts again. */
export type TestProcess = {
  child: ChildProcessByStdio<null, Readable, Readable>;
  output: () => string;
  exited: Promise<number | null>;
  /** Kills it as the OOM killer does (SIGKILL: no handler runs) and waits until it is gone. */
  kill9: () => Promise<void>;
};

/**
 * Starts a script the way its npm command does, as one node process with tsx's loader (no npm or tsx parent
 * between, so a signal reaches it), and resolves once it prints `readyLine`.
 */
export async function startProcess(script: string, env: Record<string, string>, readyLine: string): Promise<TestProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(readyLine)) resolve();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    void exited.then((code) => reject(new Error(`${script} exited with ${code} before it was ready:\n${output}`)));
  });
  return {
    child,
    output: () => output,
    exited,
    kill9: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** `npm run worker` on the test's database. */
export const startWorkerProcess = (env: Record<string, string> = {}) => startProcess("scripts/worker.ts", env, "Chartkey worker running");

/** The API server of `CHARTKEY_WORKER=off npm start` on `port` (test/run-platform-server.ts). */
export const startApiProcess = (port: number, env: Record<string, string> = {}) => startProcess("test/run-platform-server.ts", { PORT: String(port), ...env }, "serving");

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
