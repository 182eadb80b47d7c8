import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { ensureDatabase, migrate, startEmbeddedPostgres, type EmbeddedMemory } from "@/lib/db";

export type BenchDatabaseServer = {
  /** A migrated database of this name on the bench's server, created on first use. */
  database: (name: string) => Promise<string>;
  dataDir: string;
  /** shared_buffers and whether the server runs it in huge pages (PostgreSQL's huge_pages_status). */
  cache: { sharedBuffers: string; hugePages: string };
  stop: () => Promise<void>;
};

/**
 * A PostgreSQL server of the bench's own: the embedded one `npm start` runs, with its data in a fresh folder under
 * the OS temp dir (never the developer's .data), durable settings as `npm start` has them and the cache `memory`
 * asks for (postgres-cache.ts), removed on stop.
 */
export async function startBenchDatabase(memory: EmbeddedMemory | null): Promise<BenchDatabaseServer> {
  const dataDir = path.join(tmpdir(), `ck-bench-${process.pid}-${Date.now()}`);
  const server = await startEmbeddedPostgres({ dataDir, memory });
  const client = new pg.Client({ connectionString: server.serverUrl });
  await client.connect();
  const setting = async (name: string) => (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name]!;
  const cache = { sharedBuffers: await setting("shared_buffers"), hugePages: await setting("huge_pages_status") };
  await client.end();
  return {
    dataDir,
    cache,
    database: async (name) => {
      await ensureDatabase(server.serverUrl, name);
      const url = server.databaseUrl(name);
      await migrate(url);
      return url;
    },
    stop: async () => {
      await server.stop().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
