import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { POSTGRES_MALLOC_TUNABLES, withPostgresMalloc } from "./embedded-malloc";
import { startEmbeddedPostgres } from "./embedded-postgres";

const environmentOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
const postmasterOf = (clusterDir: string) => Number(readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]);

const operatorSetting = process.env.GLIBC_TUNABLES;
afterEach(() => {
  if (operatorSetting === undefined) delete process.env.GLIBC_TUNABLES;
  else process.env.GLIBC_TUNABLES = operatorSetting;
});

describe("the embedded server's malloc settings", () => {
  it.runIf(process.platform === "linux" && operatorSetting === undefined)(
    "reach the PostgreSQL server process, and are gone from this process's environment once it has started",
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), "ck-malloc-"));
      const server = await startEmbeddedPostgres({ dataDir, ephemeral: true });
      try {
        // PostgreSQL writes its process title over its original environment's memory, which /proc shows: the
        // variable's start is still there, enough to show it reached the server.
        const [firstTunable] = POSTGRES_MALLOC_TUNABLES.split(":");
        expect(environmentOf(postmasterOf(path.join(dataDir, "cluster"))).some((entry) => entry.startsWith(`GLIBC_TUNABLES=${firstTunable}`))).toBe(true);
        expect(process.env.GLIBC_TUNABLES).toBeUndefined();
      } finally {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it("are in the environment of what the start spawns, whole", async () => {
    const seen = await withPostgresMalloc(() => new Promise<string>((resolve, reject) => execFile("env", (error, stdout) => (error ? reject(error) : resolve(stdout)))));
    expect(seen.split("\n")).toContain(`GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES ?? POSTGRES_MALLOC_TUNABLES}`);
  });

  it("leave an operator's own GLIBC_TUNABLES as it is, and hold while starts overlap", async () => {
    process.env.GLIBC_TUNABLES = "glibc.malloc.arena_max=2";
    await withPostgresMalloc(async () => expect(process.env.GLIBC_TUNABLES).toBe("glibc.malloc.arena_max=2"));
    expect(process.env.GLIBC_TUNABLES).toBe("glibc.malloc.arena_max=2");

    delete process.env.GLIBC_TUNABLES;
    let release!: () => void;
    const first = withPostgresMalloc(() => new Promise<void>((resolve) => (release = resolve)));
    await withPostgresMalloc(async () => expect(process.env.GLIBC_TUNABLES).toBe(POSTGRES_MALLOC_TUNABLES));
    expect(process.env.GLIBC_TUNABLES).toBe(POSTGRES_MALLOC_TUNABLES);
    release();
    await first;
    expect(process.env.GLIBC_TUNABLES).toBeUndefined();
  });
});
