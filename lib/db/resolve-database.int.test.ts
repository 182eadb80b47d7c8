import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, running, serverPidOf, watchdogOf } from "@/test/embedded-processes";
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

/** The server's shared_buffers in MB (pg_settings counts it in 8 kB pages). */
const SHARED_BUFFERS_MB = "SELECT setting::int / 128 AS mb FROM pg_settings WHERE name = 'shared_buffers'";

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
      // PostgreSQL's own cache size unless CHARTKEY_POSTGRES_SHARED_BUFFERS asks for another (the second start).
      expect(await scalar(first.url, SHARED_BUFFERS_MB)).toBe(128);
      await migrate(first.url);
      await scalar(first.url, `INSERT INTO "Developer" (id, email, name, "passwordHash") VALUES ('dev_keep', 'keep@example.test', 'Keep', 'x') RETURNING id`);

      // A one-off script started meanwhile joins the running server instead of starting a second one.
      const joined = await resolveDatabase({ dataDir });
      expect(joined).toMatchObject({ origin: "shared", url: first.url });
      await joined.stop();
      expect(await scalar(first.url, "SELECT 1 AS one")).toBe(1);

      await first.stop();
      process.env.CHARTKEY_POSTGRES_SHARED_BUFFERS = "160MB";
      const second = await resolveDatabase({ dataDir });
      expect(await scalar(second.url, SHARED_BUFFERS_MB)).toBe(160);
      expect(second.origin).toBe("embedded");
      expect(await migrate(second.url)).toEqual([]);
      expect(await scalar(second.url, `SELECT email FROM "Developer" WHERE id = 'dev_keep'`)).toBe("keep@example.test");
      await second.stop();
    } finally {
      delete process.env.CHARTKEY_POSTGRES_SHARED_BUFFERS;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** A launcher in its own process that starts the embedded server on `dataDir` and holds it until it is killed. */
async function holdDatabase(dataDir: string) {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "test/hold-embedded-database.ts", dataDir], { env, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const held = /holding (\S+)/.exec(output);
      if (held) resolve(held[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the launcher exited with ${code}: ${output}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const serverPid = (await serverPidOf(path.join(dataDir, "cluster")))!;
  return { url, serverPid, kill: async () => (child.kill("SIGKILL"), await exited) };
}

describe("a start after the launcher was killed (kill -9, an OOM kill)", () => {
  const env = { saved: process.env.DATABASE_URL };
  const withEmbedded = async (body: (dataDir: string) => Promise<void>) => {
    delete process.env.DATABASE_URL;
    const dataDir = await mkdtemp(path.join(tmpdir(), "ck-resolve-crash-"));
    try {
      await body(dataDir);
    } finally {
      process.env.DATABASE_URL = env.saved;
      await rm(dataDir, { recursive: true, force: true });
    }
  };

  it("the killed launcher's watchdog stops its server cleanly, so no server outlives the launcher", async () => {
    await withEmbedded(async (dataDir) => {
      const held = await holdDatabase(dataDir);
      expect(await watchdogOf(held.serverPid)).not.toBeNull();
      await held.kill();
      await eventually(async () => !(await running(held.serverPid)), 30_000, "the orphaned server stops");
      // PostgreSQL removes its lock file only when it shuts down cleanly.
      expect(existsSync(path.join(dataDir, "cluster", "postmaster.pid"))).toBe(false);
    });
  }, 120_000);

  it("a server left running (its watchdog killed too) is verified as ours, stopped, and the new start keeps the data", async () => {
    await withEmbedded(async (dataDir) => {
      const held = await holdDatabase(dataDir);
      await migrate(held.url);
      await scalar(held.url, `INSERT INTO "Developer" (id, email, name, "passwordHash") VALUES ('dev_orphan', 'orphan@example.test', 'O', 'x') RETURNING id`);
      process.kill((await watchdogOf(held.serverPid))!, "SIGKILL");
      await held.kill();
      // The orphan still runs and still answers on its port: the state the restart failed on.
      expect(await running(held.serverPid)).toBe(true);
      expect(await scalar(held.url, "SELECT 1 AS one")).toBe(1);

      const restarted = await resolveDatabase({ dataDir });
      try {
        expect(restarted.origin).toBe("embedded");
        expect(await running(held.serverPid)).toBe(false);
        expect(await serverPidOf(path.join(dataDir, "cluster"))).not.toBe(held.serverPid);
        expect(await scalar(restarted.url, `SELECT email FROM "Developer" WHERE id = 'dev_orphan'`)).toBe("orphan@example.test");
      } finally {
        await restarted.stop();
      }
    });
  }, 120_000);

  it("a lock file naming another program (its pid reused) is removed and that program is left running", async () => {
    await withEmbedded(async (dataDir) => {
      await (await resolveDatabase({ dataDir })).stop();
      const clusterDir = path.join(dataDir, "cluster");
      const other = spawn("sleep", ["300"], { stdio: "ignore" });
      try {
        await writeFile(path.join(clusterDir, "postmaster.pid"), `${other.pid}\n${clusterDir}\n1700000000\n5432\n\n127.0.0.1\n  1234   5678\nready   \n`);
        const started = await resolveDatabase({ dataDir });
        expect(started.origin).toBe("embedded");
        expect(await scalar(started.url, "SELECT 1 AS one")).toBe(1);
        expect(await running(other.pid!)).toBe(true);
        await started.stop();
      } finally {
        other.kill("SIGKILL");
      }
    });
  }, 120_000);

  it("a server that cannot start fails with PostgreSQL's own reason, not an empty rejection", async () => {
    await withEmbedded(async (dataDir) => {
      await (await resolveDatabase({ dataDir })).stop();
      await appendFile(path.join(dataDir, "cluster", "postgresql.conf"), "\nthis is not a setting\n");
      await expect(resolveDatabase({ dataDir })).rejects.toThrow(/PostgreSQL did not start on .*cluster: [^]*syntax error/);
    });
  }, 120_000);

  it("a server.json cut short by the crash is a launcher gone, not a failure", async () => {
    await withEmbedded(async (dataDir) => {
      await writeFile(path.join(dataDir, "server.json"), '{"url":"postgresql://chartkey:x@127.0.0.1:1/chartkey","pi');
      const started = await resolveDatabase({ dataDir });
      expect(started.origin).toBe("embedded");
      await started.stop();
    });
  }, 120_000);
});
