import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "./embedded-postgres";

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
  await writeFile(runtimeFile, JSON.stringify({ url, pid: process.pid }), { mode: 0o600 });
  return {
    url,
    origin: "embedded",
    stop: async () => {
      await rm(runtimeFile, { force: true });
      await server.stop();
    },
  };
}

async function readRunningServer(runtimeFile: string): Promise<string | null> {
  if (!existsSync(runtimeFile)) return null;
  const { url, pid } = JSON.parse(await readFile(runtimeFile, "utf8")) as { url: string; pid: number };
  if (!processAlive(pid) || !(await reachable(url))) {
    await rm(runtimeFile, { force: true });
    return null;
  }
  return url;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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
