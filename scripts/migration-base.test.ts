import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { schemaOfCommittedMigrations } from "./migration-base";

const exec = promisify(execFile);
const repos: string[] = [];

async function repo(): Promise<{ dir: string; write: (file: string, text: string) => Promise<void>; commit: (message: string) => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), "ck-migration-base-"));
  repos.push(dir);
  const git = (...args: string[]) => exec("git", ["-c", "user.name=t", "-c", "user.email=t@example.test", ...args], { cwd: dir });
  await git("init", "-q");
  return {
    dir,
    write: async (file, text) => {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    },
    commit: async (message) => {
      await git("add", "-A");
      await git("commit", "-qm", message);
    },
  };
}

afterEach(async () => {
  for (const dir of repos.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("schemaOfCommittedMigrations", () => {
  it("is the schema as of the last commit that changed the migrations, not a later edit of the schema", async () => {
    const r = await repo();
    await r.write("prisma/schema.prisma", "model A { id Int @id }\n");
    await r.write("prisma/migrations/001_a/migration.sql", "CREATE TABLE a (id int);\n");
    await r.commit("first migration");
    await r.write("prisma/schema.prisma", "model A { id Int @id }\nmodel B { id Int @id }\n");
    await r.write("prisma/migrations/002_b/migration.sql", "CREATE TABLE b (id int);\n");
    await r.commit("second migration");
    await r.write("prisma/schema.prisma", "model A { id Int @id }\nmodel B { id Int @id }\nmodel C { id Int @id }\n");
    await r.commit("schema edited, no migration yet");
    await r.write("prisma/schema.prisma", "model D { id Int @id }\n");

    expect(await schemaOfCommittedMigrations(r.dir)).toBe("model A { id Int @id }\nmodel B { id Int @id }\n");
  });

  it("refuses while a migration is uncommitted, since the diff would start before it", async () => {
    const r = await repo();
    await r.write("prisma/schema.prisma", "model A { id Int @id }\n");
    await r.write("prisma/migrations/001_a/migration.sql", "CREATE TABLE a (id int);\n");
    await r.commit("first migration");
    await r.write("prisma/migrations/002_b/migration.sql", "CREATE TABLE b (id int);\n");

    await expect(schemaOfCommittedMigrations(r.dir)).rejects.toThrow(/uncommitted changes[\s\S]*002_b\/migration\.sql/);
  });

  it("is null before any migration was committed, and refuses outside a git clone", async () => {
    const r = await repo();
    await r.write("prisma/schema.prisma", "model A { id Int @id }\n");
    await r.commit("schema only");
    expect(await schemaOfCommittedMigrations(r.dir)).toBeNull();

    const plain = await mkdtemp(path.join(tmpdir(), "ck-migration-plain-"));
    repos.push(plain);
    await expect(schemaOfCommittedMigrations(plain)).rejects.toThrow(/git clone/);
  });
});
