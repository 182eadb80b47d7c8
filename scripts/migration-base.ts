import { execFile } from "node:child_process";
import { promisify } from "node:util";

const git = promisify(execFile);

/**
 * The datamodel the committed migrations produce, for the next migration's diff: `prisma/schema.prisma` as of the
 * latest commit that changed `prisma/migrations`. lib/db/migrate.int.test.ts proves on every commit that the
 * migrations build exactly that schema, so git history is the starting point Prisma would otherwise compute from a
 * shadow database (`migrate diff --from-migrations`), which Prisma 6.19 refuses beside a driver adapter.
 * Returns null when no migration was ever committed (the first migration is made from an empty database).
 */
export async function schemaOfCommittedMigrations(repoDir: string, migrationsDir = "prisma/migrations"): Promise<string | null> {
  const run = async (...args: string[]) => (await git("git", args, { cwd: repoDir, maxBuffer: 16 * 1024 * 1024 })).stdout;
  try {
    await run("rev-parse", "--is-inside-work-tree");
  } catch {
    throw new Error("a new migration is diffed from the schema of the last committed one: run this in the project's git clone");
  }
  const pending = (await run("status", "--porcelain", "--untracked-files=all", "--", migrationsDir)).trim();
  if (pending) {
    throw new Error(
      `${migrationsDir} has uncommitted changes; commit (or remove) them first, since the next migration starts from the schema of the last committed one:\n${pending}`,
    );
  }
  const commit = (await run("log", "-1", "--format=%H", "--", migrationsDir)).trim();
  if (!commit) return null;
  return run("show", `${commit}:prisma/schema.prisma`);
}
