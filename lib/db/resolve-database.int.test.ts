import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { migrate } from "./migrate";
import { resolveDatabase } from "./resolve-database";

async function scalar(url: string, sql: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Object.values((await client.query(sql)).rows[0] ?? {})[0];
  } finally {
    await client.end();
  }
}

const savedUrl = process.env.DATABASE_URL;
afterEach(() => {
  process.env.DATABASE_URL = savedUrl;
});

describe("choosing the database", () => {
  it("uses DATABASE_URL when it is set and starts nothing", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "ck-resolve-ext-"));
    try {
      const resolved = await resolveDatabase({ dataDir });
      expect(resolved).toMatchObject({ origin: "external", url: savedUrl });
      expect(await scalar(resolved.url, "SELECT 1 AS one")).toBe(1);
      expect(existsSync(path.join(dataDir, "cluster"))).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("without DATABASE_URL starts the embedded PostgreSQL, shares it while it runs, and keeps data across restarts", async () => {
    delete process.env.DATABASE_URL;
    const dataDir = await mkdtemp(path.join(tmpdir(), "ck-resolve-emb-"));
    try {
      const first = await resolveDatabase({ dataDir });
      expect(first.origin).toBe("embedded");
      expect(first.url).toMatch(/^postgresql:\/\/chartkey:[^@]+@127\.0\.0\.1:\d+\/chartkey$/);
      await migrate(first.url);
      await scalar(first.url, `INSERT INTO "Developer" (id, email, name, "passwordHash") VALUES ('dev_keep', 'keep@example.test', 'Keep', 'x') RETURNING id`);

      // A one-off script started meanwhile joins the running server instead of starting a second one.
      const joined = await resolveDatabase({ dataDir });
      expect(joined).toMatchObject({ origin: "shared", url: first.url });
      await joined.stop();
      expect(await scalar(first.url, "SELECT 1 AS one")).toBe(1);

      await first.stop();
      const second = await resolveDatabase({ dataDir });
      expect(second.origin).toBe("embedded");
      expect(await migrate(second.url)).toEqual([]);
      expect(await scalar(second.url, `SELECT email FROM "Developer" WHERE id = 'dev_keep'`)).toBe("keep@example.test");
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
