import { execFile } from "node:child_process";
import { readlink, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { db, ensureDatabase, freePort, migrate, startEmbeddedPostgres } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { startQueue } from "@/lib/jobs";
import { JOBS } from "@/scripts/platform-jobs";
import { QUEUE } from "@/lib/queue";
import { request, type Answer } from "@/test/api-server";
import { serverPidOf } from "@/test/embedded-processes";
import { createTestApplication } from "@/test/factories";
import { startApiProcess, startWorkerProcess, type TestProcess } from "@/test/fault-processes";
import { startReceiver, waitFor } from "@/test/webhook-receiver";

// PostgreSQL stopped while the app (CHARTKEY_WORKER=off) and `npm run worker` run under load: every request answers
// the spec's envelope for an unreachable database (500 `database_error`, or the operation's 503 `*_unavailable`;
// the health check 503 "unreachable") within a bounded time, neither process exits, and once PostgreSQL is started
// again on the same port the same processes serve again by themselves. The server is this file's own (the suite's
// shared one cannot stop), started and stopped with the PostgreSQL tools the embedded server runs from.

const run = promisify(execFile);
const dataDir = path.join(tmpdir(), `ck-outage-${process.pid}`);
const clusterDir = path.join(dataDir, "cluster");
// As root the embedded server runs as the `postgres` system user (lib/db/embedded-postgres.ts); its tools must too.
const asServerUser = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
const BOUND_MS = 5_000;

let port = 0;
let binDir = "";
let app: TestProcess;
let worker: TestProcess;
let origin = "";
let key = "";
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let hooked: Awaited<ReturnType<typeof createTestApplication>>["application"];
const previousUrl = process.env.DATABASE_URL;

async function pgCtl(...args: string[]) {
  const [command, ...rest] = [...asServerUser, path.join(binDir, "pg_ctl"), "-D", clusterDir, "-w", ...args];
  await run(command!, rest);
}
const stopPostgres = () => pgCtl("-m", "fast", "stop");
// pg_ctl's server would hold our pipes open (and execFile waiting) without a log file of its own.
const startPostgres = () => pgCtl("-l", `${dataDir}.log`, "-o", `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off`, "start");

beforeAll(async () => {
  const server = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  port = Number(new URL(server.serverUrl).port);
  binDir = path.dirname(await readlink(`/proc/${await serverPidOf(clusterDir)}/exe`));
  await ensureDatabase(server.serverUrl, "chartkey");
  const url = server.databaseUrl("chartkey");
  await migrate(url);
  // This file's data lives on that server: the application is created there.
  process.env.DATABASE_URL = url;
  key = (await createTestApplication()).sandboxKey;
  hooked = (await createTestApplication()).application;
  receiver = await startReceiver(decryptSecret(hooked.signingSecretEncrypted));
  await db().application.update({ where: { id: hooked.id }, data: { webhookUrl: `${receiver.origin}/outage` } });
  const appPort = await freePort();
  origin = `http://127.0.0.1:${appPort}`;
  // Errors are logged (kept in memory by the test): an unexpected answer is reported with what the app logged.
  app = await startApiProcess(appPort, { DATABASE_URL: url, CHARTKEY_WORKER: "off", LOG_LEVEL: "error" });
  // The receiver listens on loopback, which only a deployment that opts in lets sandbox webhooks reach.
  worker = await startWorkerProcess({ DATABASE_URL: url, LOG_LEVEL: "fatal", CHARTKEY_ALLOW_PRIVATE_WEBHOOKS: "on" });
}, 120_000);

afterAll(async () => {
  await app?.kill9();
  await worker?.kill9();
  await receiver?.close();
  process.env.DATABASE_URL = previousUrl;
  await stopPostgres().catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
  await rm(`${dataDir}.log`, { force: true });
});

// A mix of reads and writes over the families' operations, with the codes each may answer when the database is away.
const LOAD: { method: string; path: string; body?: unknown; unavailable?: string }[] = [
  { method: "GET", path: "/app" },
  { method: "GET", path: "/users" },
  { method: "POST", path: "/connect/sessions", body: { categories: ["labs"] } },
  { method: "GET", path: "/users/u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd/records" },
  { method: "GET", path: "/conformance/runs", unavailable: "conformance_unavailable" },
  { method: "POST", path: "/tefca/sessions", body: { patientId: "tefca-synthetic-rosa", categories: ["labs"] }, unavailable: "tefca_sandbox_unavailable" },
];

type Timed = { answer: Answer; ms: number; what: string };

async function timed(method: string, pathname: string, body?: unknown): Promise<Timed> {
  const started = Date.now();
  const answer = await request(origin, method, `/api/v1${pathname}`, { token: key, body });
  return { answer, ms: Date.now() - started, what: `${method} ${pathname}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}` };
}

/** Every operation of the load once, concurrently, as clients keep asking. */
const round = () => Promise.all(LOAD.map((item) => timed(item.method, item.path, item.body)));

describe("PostgreSQL stopped under load", () => {
  it("answers a clean envelope within a bounded time, no process exits, and service resumes by itself when the database is back", async () => {
    for (const { answer, what } of await round()) expect(answer.status, `${what}\n${app.output().slice(-4000)}`).toBeLessThan(500);

    await stopPostgres();
    const during: Timed[] = [];
    const outageEnds = Date.now() + 6_000;
    while (Date.now() < outageEnds) during.push(...(await round()), await timed("GET", "/health"));
    expect(during.length).toBeGreaterThan(LOAD.length * 3);
    for (const { answer, ms, what } of during) {
      expect(ms, what).toBeLessThan(BOUND_MS);
      const text = JSON.stringify(answer.body);
      expect(text, what).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|at \w+ \(|prisma|postgres/i);
      expect(answer.headers.get("request-id"), what).toMatch(/^req_/);
      if (what.startsWith("GET /health")) {
        expect(answer.status, what).toBe(503);
        expect(answer.body, what).toMatchObject({ status: expect.any(String), checks: { database: "unreachable" } });
        continue;
      }
      const item = LOAD.find((load) => what.startsWith(`${load.method} ${load.path}:`))!;
      const allowed = [["database_error", 500], ...(item.unavailable ? [[item.unavailable, 503]] : [])];
      expect(Object.keys(answer.body), what).toEqual(["error"]);
      expect(allowed, what).toContainEqual([answer.body.error!.code, answer.status]);
    }
    expect(app.child.exitCode, app.output()).toBeNull();
    expect(worker.child.exitCode, worker.output()).toBeNull();

    await startPostgres();
    await waitFor(async () => (await round()).every(({ answer }) => answer.status < 500), "every operation is served again", 30_000, 500);
    expect((await timed("GET", "/health")).answer.status).toBe(200);
    // The worker resumes too: a job queued now is taken (an import of a source no row backs: it runs, finds
    // nothing, retries), and an event recorded now is delivered by its delivery loop.
    const boss = await startQueue(process.env.DATABASE_URL!, JOBS);
    try {
      const id = (await boss.send(QUEUE.sourceImport, { sourceId: "src_0000000000000000000outage" }))!;
      await waitFor(async () => (await boss.getJobById(QUEUE.sourceImport, id))?.startedOn, "the worker takes a job again", 45_000, 500);
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
    const event = await recordEvent({ applicationId: hooked.id, environment: "sandbox", type: "webhook.test", data: {} });
    await waitFor(() => receiver.received.some((item) => item.id === event.id), "the worker delivers again", 45_000, 500);
    expect(app.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
  }, 150_000);
});
