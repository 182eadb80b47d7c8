// Authors a migration. Each migration folder keeps a snapshot of the schema.prisma it was made from; the new
// migration is Prisma's diff from the latest snapshot to the current prisma/schema.prisma.
// Usage: npm run db:migration -- <name>
import { existsSync } from "node:fs";
import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MIGRATIONS_DIR, prismaDiffSql, readMigrations, startEmbeddedPostgres } from "@/lib/db";

const SNAPSHOT = "schema.prisma";
const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(2);
}

const latest = (await readMigrations()).at(-1);
const from = latest ? path.join(MIGRATIONS_DIR, latest.name, SNAPSHOT) : null;
if (from && !existsSync(from)) throw new Error(`${from} is missing; every migration keeps its schema snapshot`);

const dataDir = path.join(tmpdir(), `ck-migration-${process.pid}`);
const server = await startEmbeddedPostgres({ dataDir, ephemeral: true });
try {
  const sql = await prismaDiffSql({ from, to: "prisma/schema.prisma", databaseUrl: server.serverUrl });
  if (!sql) {
    console.log("prisma/schema.prisma matches the latest migration; nothing to write");
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "migration.sql"), `${sql}\n`);
    await copyFile("prisma/schema.prisma", path.join(dir, SNAPSHOT));
    console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
  }
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
