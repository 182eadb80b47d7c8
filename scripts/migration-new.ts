// Authors a migration: Prisma's diff from the schema the committed migrations build (prisma/schema.prisma as of the
// last commit that changed prisma/migrations, scripts/migration-base.ts) to the current prisma/schema.prisma.
// Usage: npm run db:migration -- <name>
import { mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MIGRATIONS_DIR, prismaDiffSql, startEmbeddedPostgres } from "@/lib/db";
import { schemaOfCommittedMigrations } from "./migration-base";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(2);
}

const workDir = path.join(tmpdir(), `ck-migration-${process.pid}`);
const committed = await schemaOfCommittedMigrations(process.cwd(), path.relative(process.cwd(), MIGRATIONS_DIR));
const from = committed === null ? null : path.join(workDir, "committed.prisma");
if (from) {
  await mkdir(workDir, { recursive: true });
  await writeFile(from, committed!);
}
const server = await startEmbeddedPostgres({ dataDir: path.join(workDir, "pg"), ephemeral: true });
try {
  const sql = await prismaDiffSql({ from, to: "prisma/schema.prisma", databaseUrl: server.serverUrl });
  if (!sql) {
    console.log("prisma/schema.prisma matches the committed migrations; nothing to write");
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "migration.sql"), `${sql}\n`);
    console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql (commit it before authoring the next one)`);
  }
} finally {
  await server.stop();
  await rm(workDir, { recursive: true, force: true });
}
