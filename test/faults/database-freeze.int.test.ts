import { readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, DATABASE_RETRY_AFTER_SECONDS, DEFAULT_DATABASE_TIMEOUTS, ensureDatabase, freePort, migrate, startEmbeddedPostgres } from "@/lib/db";
import { request, type Answer } from "@/test/api-server";
import { serverPidOf } from "@/test/embedded-processes";
import { startApiProcess, type TestProcess } from "@/test/fault-processes";
import { sharingSubject } from "@/test/records";
import { waitFor } from "@/test/webhook-receiver";

// PostgreSQL frozen (SIGSTOP of the postmaster and every backend: a failover or a network partition looks the same
// to a client, and the server's own statement_timeout cannot fire) while the app serves: every kind of request is
// answered 503 `database_unavailable` with Retry-After within the client-side bound (lib/db/timeouts.ts, defaults),
// the health check 503 within its 2 s probe; after SIGCONT the same process serves the same requests again. The
// server is this file's own: freezing the suite's shared one (or CI's PostgreSQL 15) would stall every other file.

const dataDir = path.join(tmpdir(), `ck-freeze-${process.pid}`);
const clusterDir = path.join(dataDir, "cluster");
// One bound trips per request (the first statement that gets no answer fails it); generous slack for a loaded machine.
const BOUND_MS = Math.max(DEFAULT_DATABASE_TIMEOUTS.connectMs, DEFAULT_DATABASE_TIMEOUTS.queryMs);
const SLACK_MS = 3_000;
const HEALTH_BOUND_MS = 2_000;

let server: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
let app: TestProcess;
let origin = "";
let key = "";
let subjectId = "";
const previousUrl = process.env.DATABASE_URL;

beforeAll(async () => {
  server = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  await ensureDatabase(server.serverUrl, "chartkey");
  const url = server.databaseUrl("chartkey");
  await migrate(url);
  // This file's data lives on that server: the application and its consented subject are created there.
  process.env.DATABASE_URL = url;
  const sharing = await sharingSubject();
  key = sharing.sandboxKey;
  subjectId = sharing.subject.id;
  await closeDb();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // The bounds are the defaults: DATABASE_*_TIMEOUT_MS are left unset.
  app = await startApiProcess(port, { DATABASE_URL: url, CHARTKEY_WORKER: "off", LOG_LEVEL: "error" });
}, 120_000);

afterAll(async () => {
  await app?.kill9();
  process.env.DATABASE_URL = previousUrl;
  await server?.stop().catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
});

/** The postmaster of this file's cluster and every process it started (backends, checkpointer, walwriter...). */
async function clusterProcesses(): Promise<number[]> {
  const postmaster = await serverPidOf(clusterDir);
  if (!postmaster) throw new Error("the test's PostgreSQL is not running");
  const children: number[] = [];
  for (const entry of (await readdir("/proc")).filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // Fields after the command's closing parenthesis: state, then the parent's pid.
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (parent === postmaster) children.push(Number(entry));
  }
  return [postmaster, ...children];
}

function signal(pids: readonly number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // Gone meanwhile (a backend whose client left).
    }
  }
}

type Probe = { name: string; method: string; path: string; token?: string; body?: unknown; ok: number };

const probes = (): Probe[] => [
  { name: "GET /app", method: "GET", path: "/app", token: key, ok: 200 },
  { name: "category page", method: "GET", path: `/users/${subjectId}/records/labs?limit=10`, token: key, ok: 200 },
  { name: "snapshot", method: "GET", path: `/users/${subjectId}/records`, token: key, ok: 200 },
  { name: "POST /connect/sessions", method: "POST", path: "/connect/sessions", token: key, body: { categories: ["labs"] }, ok: 201 },
  // Well formed, so it is looked up (a malformed key is refused without the database).
  { name: "wrong key", method: "GET", path: "/app", token: unknownKey(key), ok: 401 },
  { name: "GET /health", method: "GET", path: "/health", ok: 200 },
];

/** `real` with its last character changed: the same shape, no such key. */
const unknownKey = (real: string) => real.slice(0, -1) + (real.endsWith("A") ? "B" : "A");

type Timed = { probe: Probe; answer: Answer; ms: number };

async function timed(probe: Probe): Promise<Timed> {
  const started = Date.now();
  const answer = await request(origin, probe.method, `/api/v1${probe.path}`, { token: probe.token, body: probe.body });
  return { probe, answer, ms: Date.now() - started };
}

const describeAnswer = ({ probe, answer, ms }: Timed) => `${probe.name}: ${answer.status} in ${ms} ms ${JSON.stringify(answer.body).slice(0, 300)}`;

describe("PostgreSQL frozen (SIGSTOP)", () => {
  it("answers every kind of request 503 within the stated bound, and serves them again once it thaws, without a restart", async () => {
    // Warm: the key is cached and the pools hold connections, as on a serving instance.
    for (const result of await Promise.all(probes().map(timed))) expect(result.answer.status, describeAnswer(result)).toBe(result.probe.ok);

    let frozen: number[] = [];
    const during: Timed[] = [];
    try {
      frozen = await clusterProcesses();
      signal(frozen, "SIGSTOP");
      // Anything the postmaster started between the listing and its stop.
      const late = (await clusterProcesses()).filter((pid) => !frozen.includes(pid));
      signal(late, "SIGSTOP");
      frozen.push(...late);
      // Twice: the first round meets the pools' idle connections (a statement that gets no answer), the second the
      // connections the first destroyed being opened again (a connection that is never completed).
      for (let round = 0; round < 2; round++) during.push(...(await Promise.all(probes().map(timed))));
    } finally {
      signal(frozen, "SIGCONT");
      signal(await clusterProcesses().catch(() => []), "SIGCONT");
    }

    const summary = during.map(describeAnswer).join("\n");
    console.log(`while frozen:\n${summary}`);
    for (const result of during) {
      const what = `${describeAnswer(result)}\n${app.output().slice(-2000)}`;
      expect(result.answer.status, what).toBe(503);
      expect(result.answer.headers.get("request-id"), what).toMatch(/^req_/);
      if (result.probe.name === "GET /health") {
        expect(result.answer.body, what).toMatchObject({ status: "unavailable", checks: { database: "unreachable" } });
        expect(result.ms, what).toBeLessThan(HEALTH_BOUND_MS + SLACK_MS);
        continue;
      }
      expect(result.answer.body, what).toEqual({
        error: { type: "api_error", code: "database_unavailable", message: expect.any(String), requestId: expect.stringMatching(/^req_/) },
      });
      expect(result.answer.headers.get("retry-after"), what).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(result.ms, what).toBeLessThan(BOUND_MS + SLACK_MS);
    }
    expect(app.child.exitCode, app.output()).toBeNull();

    // Thawed: the same process answers every request as before, well within a few seconds.
    const thawed = Date.now();
    let last: Timed[] = [];
    await waitFor(
      async () => {
        last = await Promise.all(probes().map(timed));
        return last.every((result) => result.answer.status === result.probe.ok);
      },
      "every request is served again",
      30_000,
      250,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${last.map(describeAnswer).join("\n")}`);
    });
    console.log(`served again ${Date.now() - thawed} ms after SIGCONT:\n${last.map(describeAnswer).join("\n")}`);
    expect(app.child.exitCode).toBeNull();
  }, 90_000);
});
