import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { request, startApiServer } from "@/test/api-server";
import { sharingSubject } from "@/test/records";
import { closeDb } from "./client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded-postgres";
import { migrate } from "./migrate";

// The embedded database's backup as docs/operations.md describes it: stop the server, copy its folder (cp -a keeps
// the owner PostgreSQL insists on), start a fresh server on the copy. Data written and read through the platform's
// own code and records API comes back identical from the restored copy.

const run = promisify(execFile);
const perFileDatabase = process.env.DATABASE_URL;
const folders: string[] = [];
const servers: EmbeddedDatabase[] = [];

afterAll(async () => {
  await closeDb();
  process.env.DATABASE_URL = perFileDatabase;
  for (const server of servers) await server.stop().catch(() => undefined);
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** Points this process's platform code at `url` (db() opens its client from DATABASE_URL on first use). */
async function useDatabase(url: string) {
  await closeDb();
  process.env.DATABASE_URL = url;
}

async function readRecords(subject: string, key: string) {
  const api = await startApiServer();
  try {
    const answer = await request(api.origin, "GET", `/api/v1/users/${subject}/records`, { token: key });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    // When the answer was built is the only field that is not stored data.
    const { meta, ...stored } = answer.body as { meta: Record<string, unknown> };
    return { ...stored, meta: { ...meta, generatedAt: undefined } };
  } finally {
    await api.close();
  }
}

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
