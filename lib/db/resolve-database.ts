import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { processStartTime } from "./local-process";

export const APP_DATABASE = "chartkey";

export type ResolvedDatabase = {
  url: string;
  /** `external`: DATABASE_URL; `embedded`: a server this process started; `shared`: one another process runs. */
  origin: "external" | "embedded" | "shared";
  stop: () => Promise<void>;
};

// While a launcher runs the embedded server, it leaves the server's URL here so that `npm run dev:key` and other
// one-off scripts join that server instead of trying to start a second one on the same data folder.
/** Where a running embedded server records its URL, so other tools (dev:key, tests) reuse it. */
export const RUNTIME_FILE = "server.json";

/**
 * The database the platform uses: DATABASE_URL when set (any PostgreSQL 15+), else the embedded PostgreSQL with
 * its data under `dataDir`, started here unless another local process already runs it.
 */
export async function resolveDatabase(options: { dataDir: string; log?: (line: string) => void }): Promise<ResolvedDatabase> {
  const external = process.env.DATABASE_URL;
  if (external) return { url: external, origin: "external", stop: async () => {} };

  const runtimeFile = path.join(path.resolve(options.dataDir), RUNTIME_FILE);
  const running = await readRunningServer(runtimeFile);
  if (running) return { url: running, origin: "shared", stop: async () => {} };

  const server = await startEmbeddedPostgres({ dataDir: options.dataDir, log: options.log });
  await ensureDatabase(server.serverUrl, APP_DATABASE);
  const url = server.databaseUrl(APP_DATABASE);
  const launcher: RunningServer = { url, pid: process.pid, startedAt: await processStartTime(process.pid) };
  await writeFile(runtimeFile, JSON.stringify(launcher), { mode: 0o600 });
  return {
    url,
    origin: "embedded",
    stop: async () => {
      await rm(runtimeFile, { force: true });
      await server.stop();
    },
  };
}

/** What server.json holds: the server's URL and the launcher that runs it (a pid plus its start time names it). */
type RunningServer = { url: string; pid: number; startedAt: string | null };

/**
 * The URL of the server another launcher runs, or null when that launcher is gone: then its file is removed, and
 * a server it may have left behind is dealt with when this process starts its own (lib/db/orphaned-postgres.ts).
 */
async function readRunningServer(runtimeFile: string): Promise<string | null> {
  if (!existsSync(runtimeFile)) return null;
  const running = parseRunningServer(await readFile(runtimeFile, "utf8"));
  if (!running || !(await launcherRuns(running)) || !(await reachable(running.url))) {
    await rm(runtimeFile, { force: true });
    return null;
  }
  return running.url;
}

/** A crash mid-write leaves the file short: that is a launcher gone, not an error. */
function parseRunningServer(text: string): RunningServer | null {
  try {
    const parsed = JSON.parse(text) as Partial<RunningServer>;
    return typeof parsed.url === "string" && typeof parsed.pid === "number" ? { url: parsed.url, pid: parsed.pid, startedAt: parsed.startedAt ?? null } : null;
  } catch {
    return null;
  }
}

/** The launcher still runs: its pid names a process that started when it did (pids are reused). */
async function launcherRuns(running: RunningServer): Promise<boolean> {
  const startedAt = await processStartTime(running.pid);
  return startedAt !== null && (running.startedAt === null || startedAt === running.startedAt);
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}
