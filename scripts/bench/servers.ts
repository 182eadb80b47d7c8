import { spawn, type ChildProcess } from "node:child_process";
import { openSync, closeSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { START_NODE_ARGS } from "../start-command";

export type RunningServer = { name: string; url: string; pid: number; stop: () => Promise<void> };


/**
 * Starts a server as a child process with its output in `logFile` (the platform logs a line per request, as in
 * production; a file keeps that cost real without the bench reading it) and waits until `readyPath` answers
 * `readyStatus`.
 */
async function startProcess(name: string, nodeArgs: string[], env: NodeJS.ProcessEnv, url: string, readyPath: string, logFile: string, readyStatus = 200): Promise<RunningServer> {
  const log = openSync(logFile, "a");
  // `node --import tsx` is what the tsx command runs, minus its wrapper process: signals reach the server itself.
  const child = spawn(process.execPath, nodeArgs, { env, stdio: ["ignore", log, log] });
  closeSync(log);
  let exited = false;
  child.once("exit", () => (exited = true));
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    if (exited) throw new Error(`${name} exited during start; see ${logFile}`);
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(`${name} did not answer ${readyPath} in time; see ${logFile}`);
    }
    const ready = await fetch(url + readyPath).then((response) => response.status === readyStatus, () => false);
    if (ready) break;
    await sleep(250);
  }
  return { name, url, pid: child.pid!, stop: () => stopProcess(child) };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}

export type ServerEnv = { databaseUrl: string; secret: string; authSecret: string; rateLimit: number; dataDir: string };

/**
 * The platform exactly as `npm start` runs it (its command line, START_NODE_ARGS: production build, the platform's
 * HTTP server with Next.js inside), on the seeded database through DATABASE_URL, without the in-process job worker
 * (nothing is queued during the bench), the per-key limit lifted so it is paid but never refuses, and logs at info.
 */
export function startPlatform(port: number, env: ServerEnv, logFile: string, cpuProfileDir?: string): Promise<RunningServer> {
  const url = `http://127.0.0.1:${port}`;
  return startProcess(
    "platform",
    [...(cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : []), ...START_NODE_ARGS],
    {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_URL: env.databaseUrl,
      CHARTKEY_DATA_DIR: env.dataDir,
      CHARTKEY_SECRET: env.secret,
      AUTH_SECRET: env.authSecret,
      CHARTKEY_RATE_LIMIT_PER_MINUTE: String(env.rateLimit),
      CHARTKEY_WORKER: "off",
      LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    url,
    "/api/v1/health",
    logFile,
  );
}

/** The bare node:http + pg baseline (scripts/bench/baseline-server.ts) on the same database. */
export function startBaseline(port: number, env: ServerEnv, logFile: string): Promise<RunningServer> {
  const url = `http://127.0.0.1:${port}`;
  return startProcess(
    "baseline",
    ["--import", "tsx", "scripts/bench/baseline-server.ts"],
    { ...process.env, NODE_ENV: "production", PORT: String(port), DATABASE_URL: env.databaseUrl, CHARTKEY_SECRET: env.secret, CHARTKEY_RATE_LIMIT_PER_MINUTE: String(env.rateLimit) },
    url,
    "/api/v1/app",
    logFile,
    401,
  );
}
