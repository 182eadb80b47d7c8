import { randomBytes } from "node:crypto";
import { cp, mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { withDatabase } from "@/test/global-setup";
import { describePublicSchema } from "./catalog";
import { migrate, MIGRATIONS_DIR, readMigrations } from "./migrate";
import { prismaDiffSql } from "./schema-sql";

const serverUrl = inject("databaseServerUrl");
const created: string[] = [];

async function emptyDatabase(): Promise<string> {
  const name = `ck_mig_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  created.push(name);
  return withDatabase(serverUrl, name);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe("migrations", () => {
  it("applied to an empty database, produce exactly the structure of prisma/schema.prisma", async () => {
    const migrated = await emptyDatabase();
    await migrate(migrated);

    const fromSchema = await emptyDatabase();
    const sql = await prismaDiffSql({ from: null, to: "prisma/schema.prisma", databaseUrl: fromSchema });
    await query(fromSchema, sql);

    const expected = await describePublicSchema(fromSchema);
    expect((expected.columns as unknown[]).length).toBeGreaterThan(100);
    expect(await describePublicSchema(migrated)).toEqual(expected);
  });

  it("records each migration in _prisma_migrations with Prisma's checksum and is idempotent", async () => {
    const url = await emptyDatabase();
    const files = await readMigrations();
    expect(await migrate(url)).toEqual(files.map((m) => m.name));
    expect(await migrate(url)).toEqual([]);
    const rows = await query<{ migration_name: string; checksum: string; applied_steps_count: number; finished_at: Date }>(
      url,
      `SELECT migration_name, checksum, applied_steps_count, finished_at FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((r) => [r.migration_name, r.checksum, r.applied_steps_count])).toEqual(
      files.map((m) => [m.name, m.checksum, 1]),
    );
    expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
  });

  it("concurrent runners apply each migration exactly once", async () => {
    const url = await emptyDatabase();
    const results = await Promise.all([migrate(url), migrate(url), migrate(url)]);
    const total = results.flat().length;
    expect(total).toBe((await readMigrations()).length);
    const [{ count }] = await query<{ count: string }>(url, `SELECT count(*)::text AS count FROM "_prisma_migrations"`) as [{ count: string }];
    expect(Number(count)).toBe(total);
  });

  it("converts stored records' data from jsonb to json, the same JSON", async () => {
    const url = await emptyDatabase();
    const dir = await mkdtemp(path.join(tmpdir(), "ck-migs-"));
    try {
      const migrations = await readMigrations();
      const conversion = migrations.findIndex((migration) => migration.name.endsWith("_record_data_json"));
      for (const { name } of migrations.slice(0, conversion)) await cp(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
      await migrate(url, { dir });
      const data = { recordId: "rec_1", code: { text: "Glucose \u00e9" }, value: [1.5, null, true] };
      // The record's subject is not the point here: foreign keys are left unchecked for this one row.
      await query(url, `SET session_replication_role = replica;
        INSERT INTO "Record" ("id", "subjectId", "category", "factKey", "data", "contentHash", "sources", "sortAt", "updatedAt")
        VALUES ('rec_1', 'u_1', 'labs', 'k', '${JSON.stringify(data)}'::jsonb, 'h', '[]', now(), now())`);

      expect(await migrate(url)).toEqual(migrations.slice(conversion).map((migration) => migration.name));
      const [row] = await query<{ type: string; data: unknown }>(url, `SELECT pg_typeof("data")::text AS "type", "data" FROM "Record"`);
      expect(row).toEqual({ type: "json", data });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a migration edited after it was applied, and rolls back a failing one", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "ck-migs-"));
    try {
      await mkdir(path.join(dir, "001_a"));
      await writeFile(path.join(dir, "001_a", "migration.sql"), `CREATE TABLE t_a (id int);`);
      const url = await emptyDatabase();
      await migrate(url, { dir });
      await writeFile(path.join(dir, "001_a", "migration.sql"), `CREATE TABLE t_a (id bigint);`);
      await expect(migrate(url, { dir })).rejects.toThrow(/edited after it was applied/);

      await writeFile(path.join(dir, "001_a", "migration.sql"), `CREATE TABLE t_a (id int);`);
      await mkdir(path.join(dir, "002_b"));
      await writeFile(path.join(dir, "002_b", "migration.sql"), `CREATE TABLE t_b (id int); SELECT no_such_function();`);
      await expect(migrate(url, { dir })).rejects.toThrow(/002_b failed/);
      const tables = await query<{ tablename: string }>(url, `SELECT tablename FROM pg_tables WHERE schemaname='public'`);
      expect(tables.map((t) => t.tablename)).not.toContain("t_b");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
