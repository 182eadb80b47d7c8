import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureDatabase, migrate, startEmbeddedPostgres } from "@/lib/db";

export type BenchDatabaseServer = {
  /** A migrated database of this name on the bench's server, created on first use. */
  database: (name: string) => Promise<string>;
  dataDir: string;
  stop: () => Promise<void>;
};

/**
 * A PostgreSQL server of the bench's own: the embedded one `npm start` runs, with its data in a fresh folder under
 * the OS temp dir (never the developer's .data), durable settings as `npm start` has them, removed on stop.
 */
export async function startBenchDatabase(): Promise<BenchDatabaseServer> {
  const dataDir = path.join(tmpdir(), `ck-bench-${process.pid}-${Date.now()}`);
  const server = await startEmbeddedPostgres({ dataDir });
  return {
    dataDir,
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
