import { chmod, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { seedDevelopment } from "@/lib/applications";
import { closeDb, openPlatformDatabase } from "@/lib/db";
import { request, startApiServer } from "@/test/api-server";

// The default a new clone runs on, proven in every run whatever server the other integration tests use (CI runs
// them on the machine's PostgreSQL 15 when it has one, .ci/run): with no DATABASE_URL, the launchers' first step
// (openPlatformDatabase, as `npm start`, `npm run dev` and `npm run worker` call it) starts the embedded PostgreSQL
// in a fresh data folder and applies every migration, and the platform's server answers on it: health, and a keyed
// read through the seeded development key.

const fileDatabaseUrl = process.env.DATABASE_URL;
const previousDataDir = process.env.CHARTKEY_DATA_DIR;
let dataDir = "";

afterAll(async () => {
  process.env.DATABASE_URL = fileDatabaseUrl;
  if (previousDataDir === undefined) delete process.env.CHARTKEY_DATA_DIR;
  else process.env.CHARTKEY_DATA_DIR = previousDataDir;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("the embedded default", () => {
  it("starts in a fresh data folder, applies every migration and serves the API", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "ck-embedded-default-"));
    // As root the server runs as the `postgres` user (lib/db/embedded-postgres.ts), which must reach its folder.
    await chmod(dataDir, 0o755);
    process.env.CHARTKEY_DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    await closeDb();
    const database = await openPlatformDatabase();
    try {
      expect(database.origin).toBe("embedded");
      const migrations = (await readdir("prisma/migrations", { withFileTypes: true })).filter((entry) => entry.isDirectory());
      expect(database.applied).toHaveLength(migrations.length);
      const seed = await seedDevelopment();
      expect(seed?.sandboxKey).toMatch(/^ck_test_/);

      const server = await startApiServer();
      try {
        const health = await request(server.origin, "GET", "/api/v1/health");
        expect(health.status).toBe(200);
        const app = await request(server.origin, "GET", "/api/v1/app", { token: seed?.sandboxKey });
        expect(app.status).toBe(200);
        expect(app.body.id).toBe(seed?.applicationId);
      } finally {
        await server.close();
      }
    } finally {
      await closeDb();
      await database.stop();
    }
  }, 60_000);
});
