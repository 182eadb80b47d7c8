import type { IncomingMessage, ServerResponse } from "node:http";
import type PgBoss from "pg-boss";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { db, freePort } from "@/lib/db";
import { startQueue } from "@/lib/jobs";
import { JOBS } from "@/scripts/platform-jobs";
import { ensureSandboxProviders } from "@/lib/sources";
import { createTestApplication } from "@/test/factories";
import { expireJobsOfDeadWorkers, startApiProcess, startWorkerProcess, type TestProcess } from "@/test/fault-processes";
import { canonical } from "@/test/crash-checks";
import { serveRouteFiles } from "@/test/route-server";
import { startReceiver, waitFor } from "@/test/webhook-receiver";
import { apiClient, readCategory, replayChanges, type ApiClient } from "./api-client";

// kill -9 of the worker (`npm run worker`, next to an app started with CHARTKEY_WORKER=off) in the middle of a
// two-source import and of a webhook fan-out, then the same command again: no event lost (the receiver sees every
// event's webhook-id), no record duplicated (the snapshot equals a clean import of the same scenario), no job
// stuck, and each category's change feed replayed from before the crash equals a fresh read. "In the middle" is
// made certain rather than timed: the synthetic health systems hold every FHIR read while a gate is closed, and
// the webhook receiver holds every request. The app (its API server in its own process) is killed mid TEFCA
// retrieval, which runs inside its request: the retrieval is held inside its transaction on a row lock.

const DATABASE_URL = process.env.DATABASE_URL!;
const SCENARIO = "multi-source-overlap";
const CATEGORIES = ["labs", "conditions", "medications", "vitals"];

let ehr: Awaited<ReturnType<typeof serveRouteFiles>>;
let boss: PgBoss;
let app: TestProcess;
let origin = "";
const running: TestProcess[] = [];
const previousPublicUrl = process.env.CHARTKEY_PUBLIC_URL;

// The gate: while closed, FHIR resource reads (not discovery or metadata) wait (their import is mid-flight); requests from a killed worker are dropped.
let gateOpen = true;
const parked: { req: IncomingMessage; res: ServerResponse }[] = [];
let forward: (req: IncomingMessage, res: ServerResponse) => void;
function openGate() {
  gateOpen = true;
  for (const { req, res } of parked.splice(0)) if (!req.socket.destroyed) forward(req, res);
}

let env: Record<string, string>;

beforeAll(async () => {
  ehr = await serveRouteFiles("ehr");
  const [listener] = ehr.server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  forward = listener!;
  ehr.server.removeAllListeners("request");
  ehr.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!gateOpen && /\/fhir\/[A-Z]/.test(req.url ?? "")) parked.push({ req, res });
    else forward(req, res);
  });
  process.env.CHARTKEY_PUBLIC_URL = ehr.origin;
  await ensureSandboxProviders();
  // This process's pg-boss is only a bystander: it runs the maintenance cycle any live instance would.
  boss = await startQueue(DATABASE_URL, JOBS);
  env = { CHARTKEY_PUBLIC_URL: ehr.origin, CHARTKEY_ALLOW_PRIVATE_WEBHOOKS: "on", CHARTKEY_WORKER: "off", LOG_LEVEL: "warn" };
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  app = await startApiProcess(port, env);
  running.push(app);
}, 120_000);

afterAll(async () => {
  openGate();
  for (const proc of running) await proc.kill9();
  await boss?.stop({ graceful: false, wait: true });
  await ehr?.close();
  process.env.CHARTKEY_PUBLIC_URL = previousPublicUrl;
});

async function worker(): Promise<TestProcess> {
  const started = await startWorkerProcess(env);
  running.push(started);
  return started;
}

/** A session simulated with the scenario, once the simulation has bound its patient (the subject). */
async function simulated(client: ApiClient): Promise<{ sessionId: string; subject: string }> {
  const session = (await client.ok("POST", "/connect/sessions", { categories: CATEGORIES })).body as { id: string };
  await client.ok("POST", `/connect/sessions/${session.id}/simulate`, { scenario: SCENARIO });
  const subject = await waitFor(
    async () => ((await client.ok("GET", `/connect/sessions/${session.id}`)).body as { subject: string | null }).subject,
    "the simulation binds its patient",
    60_000,
    500,
  );
  return { sessionId: session.id, subject };
}

async function simulationEnds(client: ApiClient, sessionId: string) {
  return waitFor(
    async () => {
      const session = (await client.ok("GET", `/connect/sessions/${sessionId}`)).body as { simulation: { state: string } };
      return ["completed", "failed"].includes(session.simulation.state) ? session : null;
    },
    `simulation ${sessionId} ends`,
    120_000,
    500,
  );
}

async function snapshot(client: ApiClient, subject: string) {
  const body = (await client.ok("GET", `/users/${subject}/records`)).body as { sections: Record<string, { records: unknown[] }> };
  return body.sections;
}

/** No job of these queues waits, retries or runs any more: each ended, completed or failed for all to see. */
async function unsettledJobs(): Promise<{ name: string; state: string }[]> {
  const { rows } = await boss.getDb().executeSql(`SELECT name, state FROM pgboss.job WHERE name <> 'lifecycle' AND state IN ('created', 'retry', 'active')`, []);
  return rows as { name: string; state: string }[];
}

describe("the worker killed with kill -9 and started again with the same command", () => {
  it("mid-import of a two-source simulation: the import finishes with a clean import's snapshot, no duplicate, no job stuck, the change feed replays to a fresh read", async () => {
    const { application, sandboxKey } = await createTestApplication({ categoryAllowlist: CATEGORIES });
    const receiver = await startReceiver(decryptSecret(application.signingSecretEncrypted));
    await db().application.update({ where: { id: application.id }, data: { webhookUrl: `${receiver.origin}/hooks` } });
    const client = apiClient(() => origin, sandboxKey);
    try {
      gateOpen = false;
      const first = await worker();
      const crashedSession = (await client.ok("POST", "/connect/sessions", { categories: CATEGORIES })).body as { id: string };
      await client.ok("POST", `/connect/sessions/${crashedSession.id}/simulate`, { scenario: SCENARIO });
      const importing = await waitFor(
        async () => parked.length > 0 && db().sourceImport.findFirst({ where: { source: { connectSessionId: crashedSession.id }, status: "running" }, include: { source: true } }),
        "an import reads its health system",
        60_000,
      );
      const crashed = { sessionId: crashedSession.id, subject: importing.source.subjectId };
      // Mid-import, before any record: the change feed's starting point a client saved after its first full read.
      const cursors = new Map<string, string>();
      for (const category of CATEGORIES) {
        const page = (await client.ok("GET", `/users/${crashed.subject}/records/${category}`)).body as { data: unknown[]; meta: { changeCursor: string } };
        expect(page.data).toEqual([]);
        cursors.set(category, page.meta.changeCursor);
      }
      await first.kill9();
      expect(await db().record.count({ where: { subjectId: crashed.subject } })).toBe(0);

      openGate();
      expect(await expireJobsOfDeadWorkers(DATABASE_URL, () => boss.maintain())).toBeGreaterThanOrEqual(1);
      await worker();
      const ended = (await simulationEnds(client, crashed.sessionId)) as { simulation: { state: string }; sources: { status: string }[] };
      expect(ended.simulation.state).toBe("completed");
      expect(ended.sources.map((source) => source.status)).toEqual(["synced", "synced"]);

      // The same scenario imported without a crash: the reference snapshot.
      const clean = await simulated(client);
      await simulationEnds(client, clean.sessionId);
      const [after, reference] = [await snapshot(client, crashed.subject), await snapshot(client, clean.subject)];
      expect(Object.values(reference).flatMap((section) => section.records).length).toBeGreaterThan(10);
      expect(canonical(after)).toEqual(canonical(reference));
      for (const subject of [crashed.subject, clean.subject]) {
        const records = await db().record.findMany({ where: { subjectId: subject, deletedAt: null }, select: { id: true } });
        expect(new Set(records.map((record) => record.id)).size).toBe(records.length);
      }
      expect(await db().record.count({ where: { subjectId: crashed.subject, deletedAt: null } })).toBe(await db().record.count({ where: { subjectId: clean.subject, deletedAt: null } }));

      for (const category of CATEGORIES) {
        const replayed = await replayChanges(client, crashed.subject, category, cursors.get(category)!);
        expect(replayed, category).toEqual(await readCategory(client, crashed.subject, category));
      }

      // Every import ended (the interrupted one failed visibly, its rerun completed); no job is left waiting.
      const imports = await db().sourceImport.findMany({ where: { source: { subjectId: crashed.subject } } });
      expect(imports.filter((row) => row.status === "running")).toEqual([]);
      expect(imports.filter((row) => row.status === "failed").every((row) => row.error === "interrupted")).toBe(true);
      await waitFor(async () => (await unsettledJobs()).length === 0, "every job settles", 60_000);

      // Every event of the application reached the receiver at least once.
      const events = await db().event.findMany({ where: { applicationId: application.id }, select: { id: true } });
      expect(events.length).toBeGreaterThan(0);
      await waitFor(() => events.every((event) => receiver.received.some((item) => item.id === event.id)), "every event is delivered", 60_000);
    } finally {
      openGate();
      for (const proc of running.splice(1)) await proc.kill9();
      await receiver.close();
    }
  }, 300_000);

  it("mid webhook fan-out: every event reaches the receiver at least once after the restart, and no delivery stays pending", async () => {
    const { application, sandboxKey } = await createTestApplication({ categoryAllowlist: CATEGORIES });
    const receiver = await startReceiver(decryptSecret(application.signingSecretEncrypted));
    await db().application.update({ where: { id: application.id }, data: { webhookUrl: `${receiver.origin}/hooks` } });
    const client = apiClient(() => origin, sandboxKey);
    try {
      // Users connected and imported first; then the fan-out: each is revoked through the API at once.
      await worker();
      const users = [];
      for (let index = 0; index < 3; index++) users.push(await simulated(client));
      for (const user of users) await simulationEnds(client, user.sessionId);
      await waitFor(async () => (await db().webhookDelivery.count({ where: { applicationId: application.id, status: { not: "succeeded" } } })) === 0, "the imports' events are delivered", 60_000);
      const before = receiver.received.length;

      receiver.setResponder(() => "hang");
      for (const user of users) await client.ok("POST", `/sandbox/subjects/${user.subject}/events`, { type: "consent.revoke" });
      const revocations = await db().event.count({ where: { applicationId: application.id, type: "consent.revoked" } });
      expect(revocations).toBeGreaterThanOrEqual(users.length);
      await waitFor(() => receiver.arrivals() >= before + revocations, "every revocation's delivery is in flight", 60_000);
      for (const proc of running.splice(1)) await proc.kill9();
      expect(await db().webhookDelivery.count({ where: { applicationId: application.id, status: "pending" } })).toBe(revocations);

      receiver.setResponder(() => 200);
      await expireJobsOfDeadWorkers(DATABASE_URL, () => boss.maintain());
      // The dead worker's claims hold a 15-second lease; the clock passes it too.
      await db().webhookDelivery.updateMany({ where: { applicationId: application.id, status: "pending" }, data: { nextAttemptAt: new Date(Date.now() - 1000) } });
      await worker();
      const events = await db().event.findMany({ where: { applicationId: application.id }, select: { id: true } });
      await waitFor(() => events.every((event) => receiver.received.some((item) => item.id === event.id)), "every event is delivered after the restart", 90_000);
      await waitFor(async () => (await db().webhookDelivery.count({ where: { applicationId: application.id, status: "pending" } })) === 0, "no delivery stays pending", 60_000);
      expect(await db().webhookDelivery.count({ where: { applicationId: application.id, status: "failed" } })).toBe(0);
      expect(receiver.rejected).toEqual([]);
    } finally {
      for (const proc of running.splice(1)) await proc.kill9();
      await receiver.close();
    }
  }, 300_000);
});

describe("the worker killed with kill -9 mid conformance run", () => {
  it("while it sends the webhook probes: after the restart the probes are sent again and the run ends with a verdict, no job stuck", async () => {
    const { application, sandboxKey } = await createTestApplication({ categoryAllowlist: CATEGORIES });
    const receiver = await startReceiver(decryptSecret(application.signingSecretEncrypted));
    await db().application.update({ where: { id: application.id }, data: { webhookUrl: `${receiver.origin}/hooks` } });
    const client = apiClient(() => origin, sandboxKey);
    try {
      const first = await worker();
      const run = (await client.ok("POST", "/conformance/runs", { scenario: "baseline-adult" })).body as { id: string; run_key: string };
      // The integration under test creates its Connect session with the run key; the run completes it as the patient.
      await apiClient(() => origin, run.run_key).ok("POST", "/connect/sessions", { categories: ["labs"] });
      const phaseOf = async () => ((await client.ok("GET", `/conformance/runs/${run.id}`)).body as { phase: string; status: string }).phase;
      await waitFor(async () => (await phaseOf()) === "rate_limits", "the run's session phase completes", 90_000, 500);
      receiver.setResponder(() => "hang");
      for (const phase of ["consent_revocation", "webhook_probes"]) {
        await client.ok("POST", `/conformance/runs/${run.id}/advance`);
        expect(await phaseOf()).toBe(phase);
      }
      await waitFor(() => receiver.arrivals() > 0, "a probe is in flight", 60_000);
      await first.kill9();
      expect(await db().conformanceRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "open", phase: "webhook_probes", probes: null });

      receiver.setResponder(() => 200);
      await expireJobsOfDeadWorkers(DATABASE_URL, () => boss.maintain());
      // The dead worker's claim on the probes holds a two-minute lease; the clock passes it too.
      await db().conformanceRun.update({ where: { id: run.id }, data: { probesStartedAt: new Date(Date.now() - 3 * 60_000) } });
      await worker();
      const ended = await waitFor(
        async () => {
          const body = (await client.ok("GET", `/conformance/runs/${run.id}`)).body as { status: string; verdict: string | null };
          return body.status === "ended" ? body : null;
        },
        "the run ends",
        120_000,
        500,
      );
      expect(ended.verdict).not.toBeNull();
      expect((await db().conformanceRun.findUniqueOrThrow({ where: { id: run.id } })).probes).not.toBeNull();
      await waitFor(async () => (await unsettledJobs()).every((job) => job.name !== "conformance-run"), "no conformance job is left", 60_000);
    } finally {
      for (const proc of running.splice(1)) await proc.kill9();
      await receiver.close();
    }
  }, 300_000);
});

describe("the app killed with kill -9 and started again with the same command", () => {
  it("mid TEFCA retrieval: nothing of the cut request is written, the session keeps its last step, and the client's retry exports what a clean retrieval does", async () => {
    const { sandboxKey } = await createTestApplication({ categoryAllowlist: CATEGORIES.concat(["allergies"]) });
    const client = apiClient(() => origin, sandboxKey);
    const selection = ["doc_cvh0medications01", "doc_nsx0medications01", "doc_cvh0allergies0001"];
    const discovered = async () => {
      const session = (await client.ok("POST", "/tefca/sessions", { patientId: "tefca-synthetic-rosa", categories: ["medications", "allergies"] })).body as { id: string };
      await client.ok("POST", `/tefca/sessions/${session.id}/discover`, undefined, { "If-Match": '"0"' });
      return session.id;
    };
    const cut = await discovered();

    // The retrieval is made to wait inside its transaction on the session's row, which this test holds; the app dies there.
    const holder = new pg.Client({ connectionString: DATABASE_URL });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM "TefcaSession" WHERE id = $1 FOR UPDATE`, [cut]);
      const inFlight = client.call("POST", `/tefca/sessions/${cut}/retrieve`, { documentIds: selection }, { "If-Match": '"1"' }).catch((error: Error) => error);
      await waitFor(
        async () => (await holder.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rowCount! > 0,
        "the retrieval waits mid-transaction",
        20_000,
      );
      await app.kill9();
      expect(await inFlight).toBeInstanceOf(Error); // the client saw the connection drop
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }

    app = await startApiProcess(Number(new URL(origin).port), env);
    running[0] = app;
    const after = (await client.ok("GET", `/tefca/sessions/${cut}`)).body as { state: string; version: number; retrievedResourceCount: number };
    expect(after).toMatchObject({ state: "discovered", version: 1, retrievedResourceCount: 0 });
    // The client's retry, re-reading the session for its If-Match, as docs/operations.md tells it to.
    await client.ok("POST", `/tefca/sessions/${cut}/retrieve`, { documentIds: selection }, { "If-Match": `"${after.version}"` });

    const clean = await discovered();
    await client.ok("POST", `/tefca/sessions/${clean}/retrieve`, { documentIds: selection }, { "If-Match": '"1"' });
    const exported = async (id: string) => (await client.ok("GET", `/tefca/sessions/${id}/export`)).body;
    const [cutExport, cleanExport] = [await exported(cut), await exported(clean)];
    expect(JSON.stringify(cutExport)).toContain("MedicationRequest");
    expect(canonical(cutExport)).toEqual(canonical(cleanExport));
  }, 180_000);
});
