import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { request, startApiServer } from "@/test/api-server";
import { startApiProcess } from "@/test/fault-processes";
import { sharingSubject } from "@/test/records";
import { closeDb } from "./client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded-postgres";
import { freePort } from "./free-port";
import { migrate } from "./migrate";

// Backups as docs/operations.md describes them, each restored and read back through the platform's own code and
// records API: a logical dump (pg_dump, pg_restore into a fresh database, served by a freshly started platform
// process) and, for the embedded database, a cold copy of its folder (cp -a keeps the owner PostgreSQL insists on)
// started as a fresh server. The embedded server is PostgreSQL 18 and Debian's newest pg_dump is 15, so the dump
// runs where the test server is the machine's own (CI's second pass, TEST_DATABASE_SERVER_URL).

const run = promisify(execFile);
const perFileDatabase = process.env.DATABASE_URL;
const folders: string[] = [];
const servers: EmbeddedDatabase[] = [];
const restoredDatabases: string[] = [];

afterAll(async () => {
  await closeDb();
  process.env.DATABASE_URL = perFileDatabase;
  for (const url of restoredDatabases) await onServer(url, (client) => client.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`));
  for (const server of servers) await server.stop().catch(() => undefined);
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** Points this process's platform code at `url` (db() opens its client from DATABASE_URL on first use). */
async function useDatabase(url: string) {
  await closeDb();
  process.env.DATABASE_URL = url;
}

/** Runs `work` on the maintenance database of the server `databaseUrl` names. */
async function onServer<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(databaseUrl);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function recordsAt(origin: string, subject: string, key: string) {
  const answer = await request(origin, "GET", `/api/v1/users/${subject}/records`, { token: key });
  expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
  // When the answer was built is the only field that is not stored data.
  const { meta, ...stored } = answer.body as { meta: Record<string, unknown> };
  return { ...stored, meta: { ...meta, generatedAt: undefined } };
}

async function readRecords(subject: string, key: string) {
  const api = await startApiServer();
  try {
    return await recordsAt(api.origin, subject, key);
  } finally {
    await api.close();
  }
}

/** The records as a platform process freshly started on `databaseUrl` serves them (the API server of `npm start`). */
async function readRecordsFromFreshPlatform(databaseUrl: string, subject: string, key: string) {
  const port = await freePort();
  const platform = await startApiProcess(port, { DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" });
  try {
    return await recordsAt(`http://127.0.0.1:${port}`, subject, key);
  } finally {
    await platform.kill9();
  }
}

describe("a logical backup with pg_dump", () => {
  it("restored with pg_restore into a fresh database, serves the same records", async (context) => {
    const source = perFileDatabase as string;
    const serverMajor = await onServer(source, async (client) => Math.floor(Number((await client.query("SHOW server_version_num")).rows[0].server_version_num) / 10_000));
    const dumpMajor = Number(/(\d+)\.\d+/.exec((await run("pg_dump", ["--version"])).stdout)?.[1]);
    // pg_dump refuses a server of a newer major version: the embedded server (PostgreSQL 18) needs a pg_dump 18.
    if (dumpMajor < serverMajor) context.skip(`pg_dump ${dumpMajor} cannot dump PostgreSQL ${serverMajor}: run with TEST_DATABASE_SERVER_URL`);

    await useDatabase(source);
    const { subject, sandboxKey } = await sharingSubject({ granted: ["medications", "allergies", "labs", "conditions"] });
    const before = await readRecords(subject.id, sandboxKey);
    expect(JSON.stringify(before)).toContain("medications");

    const folder = await mkdtemp(path.join(tmpdir(), "ck-dump-"));
    folders.push(folder);
    const dump = path.join(folder, "chartkey.dump");
    await run("pg_dump", ["--format=custom", "--no-owner", `--file=${dump}`, source]);
    const restoredName = `${new URL(source).pathname.slice(1)}_restored`;
    const restored = Object.assign(new URL(source), { pathname: `/${restoredName}` }).toString();
    restoredDatabases.push(restored);
    await onServer(source, (client) => client.query(`CREATE DATABASE ${restoredName}`));
    await run("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${restored}`, dump]);

    expect(await readRecordsFromFreshPlatform(restored, subject.id, sandboxKey)).toEqual(before);
  }, 180_000);
});

describe("backing up and restoring the embedded database", () => {
  it("a cold copy of the cluster folder, started as a fresh server, serves the same records", async () => {
    const original = await mkdtemp(path.join(tmpdir(), "ck-backup-"));
    const restored = await mkdtemp(path.join(tmpdir(), "ck-restore-"));
    folders.push(original, restored);

    const first = await startEmbeddedPostgres({ dataDir: original });
    servers.push(first);
    const admin = new pg.Client({ connectionString: first.serverUrl });
    await admin.connect();
    await admin.query("CREATE DATABASE chartkey");
    await admin.end();
    await migrate(first.databaseUrl("chartkey"));
    await useDatabase(first.databaseUrl("chartkey"));
    const { subject, sandboxKey } = await sharingSubject({ granted: ["medications", "allergies", "labs", "conditions"] });
    const before = await readRecords(subject.id, sandboxKey);
    expect(JSON.stringify(before)).toContain("medications");

    await closeDb();
    await first.stop();
    await rm(restored, { recursive: true, force: true });
    await run("cp", ["-a", original, restored]);

    const second = await startEmbeddedPostgres({ dataDir: restored });
    servers.push(second);
    await useDatabase(second.databaseUrl("chartkey"));
    // The restored server is a different process on another port: the answer comes from the copy.
    expect(second.serverUrl).not.toBe(first.serverUrl);
    const after = await readRecords(subject.id, sandboxKey);
    expect(after).toEqual(before);
  }, 180_000);
});
