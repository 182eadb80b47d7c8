import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { decryptSecret } from "@/lib/auth";
import { loadLocalEnv } from "@/lib/config";
import { freePort, RUNTIME_FILE } from "@/lib/db";
import { canonical, readWholeCategory, replayChangeFeed } from "@/test/crash-checks";
import { eventually, running, serverPidOf, watchdogOf } from "@/test/embedded-processes";
import { launchPlatform, type LaunchedPlatform } from "@/test/launch-platform";
import { startReceiver } from "@/test/webhook-receiver";

// `npm start` (one process: HTTP server and job worker, the embedded PostgreSQL beside it under its watchdog)
// killed with SIGKILL, as the OOM killer does, then started again with the same command and data folder. First
// while sandbox imports run: it must come up and the imports must finish. Twice: once with the embedded server
// left running as an orphan (its watchdog killed as well), once with only the launcher killed, when the watchdog
// stops the server so that no orphan remains even if nobody restarts. Then, on the same platform, once in the
// middle of a webhook fan-out, of a conformance run's webhook probes and of a TEFCA retrieval at the same time.
// The tests share the platform (one first start, not three) and run in order.
test.describe.configure({ mode: "serial" });

const dataDir = path.join(tmpdir(), `ck-e2e-crash-${Date.now()}`);
const clusterDir = path.join(dataDir, "postgres", "cluster");
let port = 0;
let platform: LaunchedPlatform | undefined;
let key = "";

test.beforeAll(async () => {
  port = await freePort();
});

test.afterAll(async () => {
  if (platform && platform.child.exitCode === null && platform.child.signalCode === null) platform.child.kill("SIGKILL");
  const left = await serverPidOf(clusterDir);
  if (left && (await running(left))) process.kill(left, "SIGQUIT");
  await rm(dataDir, { recursive: true, force: true });
});

/** `npm start` on the shared port and data folder; its first start prints the development sandbox key. */
async function start(): Promise<LaunchedPlatform> {
  // The webhook receivers of these tests listen on this machine, which only a deployment that opts in lets reach.
  platform = launchPlatform({ port, dataDir, env: { CHARTKEY_ALLOW_PRIVATE_WEBHOOKS: "on" } });
  await platform.ready;
  key ||= /CK_SANDBOX_KEY=(ck_test_\S+)/.exec(platform.output())![1]!;
  return platform;
}

/** The platform as the last test left it, or a first start when this test runs alone. */
const serving = async () => (platform && platform.child.exitCode === null && platform.child.signalCode === null ? platform : start());

/** The platform's embedded database (its port is written at every start). */
async function database(): Promise<pg.Client> {
  const url = (JSON.parse(readFileSync(path.join(dataDir, "postgres", RUNTIME_FILE), "utf8")) as { url: string }).url;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Calls /api/v1 with the development sandbox key; a non-success answer fails the test with its body. */
async function api(method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${route}: ${await response.clone().text()}`).toBeLessThan(300);
  return response.json();
}

/** Kills the launcher with SIGKILL and waits until its watchdog has stopped the embedded server. */
async function kill9(launched: LaunchedPlatform) {
  const server = (await serverPidOf(clusterDir))!;
  launched.child.kill("SIGKILL");
  await launched.exited;
  await eventually(async () => !(await running(server)), 30_000, "the watchdog stops the server");
}

type Session = { id: string; subject: string | null; simulation: { state: string } | null; sources: { recordCount: number | null }[] };

test("a platform killed mid-import restarts with the same command, and its imports finish", async () => {
  test.setTimeout(420_000);
  // Simulations (two health systems each) started until at least `count` exist and an import is running right now:
  // on a fast machine one simulation's imports may finish before the next is asked for.
  const startImports = async (count: number): Promise<string[]> => {
    const client = await database();
    const importRunning = async () => Number((await client.query(`SELECT count(*) AS n FROM "SourceImport" WHERE status = 'running'`)).rows[0].n) > 0;
    const ids: string[] = [];
    try {
      while (ids.length < count || (ids.length < count + 5 && !(await importRunning()))) {
        const session = (await api("POST", "/connect/sessions", { categories: ["labs", "conditions", "medications", "vitals"] })) as Session;
        await api("POST", `/connect/sessions/${session.id}/simulate`, { scenario: "multi-source-overlap" });
        ids.push(session.id);
      }
      await eventually(importRunning, 60_000, "an import runs");
    } finally {
      await client.end();
    }
    return ids;
  };
  const expectFinished = async (ids: string[]) => {
    for (const id of ids) {
      await eventually(async () => ((await api("GET", `/connect/sessions/${id}`)) as Session).simulation?.state === "completed", 120_000, `simulation ${id} completes`);
      const session = (await api("GET", `/connect/sessions/${id}`)) as Session;
      expect(session.sources.length).toBe(2);
      for (const source of session.sources) expect(source.recordCount).toBeGreaterThan(0);
      const records = (await api("GET", `/users/${session.subject}/records`)) as { sections: Record<string, { records: unknown[] }> };
      expect(records.sections.labs!.records.length).toBeGreaterThan(0);
    }
  };

  const first = await start();
  const firstImports = await startImports(3);

  // The worst case: the launcher and its watchdog both die, and the server runs on as an orphan.
  const orphan = (await serverPidOf(clusterDir))!;
  process.kill((await watchdogOf(orphan))!, "SIGKILL");
  first.child.kill("SIGKILL");
  await first.exited;
  expect(await running(orphan)).toBe(true);

  const second = await start();
  expect(await running(orphan)).toBe(false);
  expect(second.output()).toMatch(new RegExp(`"pid":${orphan},.*"msg":"stopping the PostgreSQL that a launcher which did not shut down left running"`));
  await expectFinished(firstImports);

  // The common case: only the launcher dies; its watchdog stops the server cleanly, with no restart needed.
  const secondImports = await startImports(2);
  const server = (await serverPidOf(clusterDir))!;
  second.child.kill("SIGKILL");
  await second.exited;
  await eventually(async () => !(await running(server)), 30_000, "the watchdog stops the server");
  expect(await serverPidOf(clusterDir)).toBeNull();

  await start();
  await expectFinished(secondImports);
});

test("a platform killed mid webhook fan-out, mid conformance probes and mid TEFCA retrieval restarts with the same command: no event lost, no job stuck, nothing duplicated", async () => {
  test.setTimeout(300_000);
  const before = await serving();
  await loadLocalEnv(); // the deployment's CHARTKEY_SECRET, to read the application's signing secret as the receiver's
  const application = (await api("GET", "/app")) as { id: string };
  let client = await database();
  const [row] = (await client.query(`SELECT "signingSecretEncrypted" FROM "Application" WHERE id = $1`, [application.id])).rows as { signingSecretEncrypted: string }[];
  const receiver = await startReceiver(decryptSecret(row!.signingSecretEncrypted));
  const since = ((await client.query(`UPDATE "Application" SET "webhookUrl" = $1 WHERE id = $2 RETURNING now() AS since`, [`${receiver.origin}/hooks`, application.id])).rows as { since: Date }[])[0]!.since;
  const categories = ["labs", "medications"];
  const pendingDeliveries = async () => Number((await client.query(`SELECT count(*) AS n FROM "WebhookDelivery" WHERE "applicationId" = $1 AND status = 'pending'`, [application.id])).rows[0].n);
  const simulated = async () => {
    const session = (await api("POST", "/connect/sessions", { categories })) as { id: string };
    await api("POST", `/connect/sessions/${session.id}/simulate`, { scenario: "baseline-adult" });
    let subject = "";
    await eventually(
      async () => {
        const read = (await api("GET", `/connect/sessions/${session.id}`)) as Session;
        subject = read.subject ?? "";
        return read.simulation?.state === "completed";
      },
      90_000,
      `simulation ${session.id} completes`,
    );
    return subject;
  };
  try {
    // A conformance run up to its webhook probes: the integration creates its Connect session with the run key (its
    // session phase runs while the users below connect).
    const run = (await api("POST", "/conformance/runs", { scenario: "baseline-adult" })) as { id: string; run_key: string };
    const runKey = key;
    key = run.run_key;
    await api("POST", "/connect/sessions", { categories: ["labs"] });
    key = runKey;

    // Three connected users: two for the fan-out of revocations, one whose change feed a client follows.
    const [revoked1, revoked2, followed] = await Promise.all([simulated(), simulated(), simulated()]);
    // What its client holds: each category read whole, and the change cursor that read gave.
    const held = new Map<string, { cursor: string; records: Map<string, unknown> }>();
    for (const category of categories) {
      const page = (await api("GET", `/users/${followed}/records/${category}?limit=100`)) as { data: { recordId: string }[]; nextCursor: string | null; meta: { changeCursor: string } };
      expect(page.nextCursor).toBeNull();
      held.set(category, { cursor: page.meta.changeCursor, records: new Map(page.data.map((record) => [record.recordId, record])) });
    }

    const phaseOf = async () => ((await api("GET", `/conformance/runs/${run.id}`)) as { phase: string }).phase;
    await eventually(async () => (await phaseOf()) === "rate_limits", 90_000, "the run's session phase completes");
    await eventually(async () => (await pendingDeliveries()) === 0, 60_000, "the imports' events are delivered");
    const delivered = receiver.arrivals();

    // A TEFCA session discovered, whose retrieval the crash will cut.
    const tefca = async () => {
      const session = (await api("POST", "/tefca/sessions", { patientId: "tefca-synthetic-rosa", categories: ["medications", "allergies"] })) as { id: string };
      await api("POST", `/tefca/sessions/${session.id}/discover`, undefined, { "If-Match": '"0"' });
      return session.id;
    };
    const selection = ["doc_cvh0medications01", "doc_nsx0medications01", "doc_cvh0allergies0001"];
    const cut = await tefca();

    // From here the receiver never answers: every delivery and probe stays in flight.
    receiver.setResponder(() => "hang");
    for (const phase of ["consent_revocation", "webhook_probes"]) {
      await api("POST", `/conformance/runs/${run.id}/advance`);
      expect(await phaseOf()).toBe(phase);
    }
    for (const subject of [revoked1, revoked2]) await api("POST", `/sandbox/subjects/${subject}/events`, { type: "consent.revoke" });
    await api("POST", `/sandbox/subjects/${followed}/events`, { type: "records.advance" });
    await eventually(
      async () => {
        const { rows } = await client.query(`SELECT count(*) FILTER (WHERE attempts > 0) AS claimed, count(*) AS pending FROM "WebhookDelivery" WHERE "applicationId" = $1 AND status = 'pending'`, [application.id]);
        const { claimed, pending } = rows[0] as { claimed: string; pending: string };
        const probing = (await client.query(`SELECT 1 FROM "ConformanceRun" WHERE id = $1 AND "probesStartedAt" IS NOT NULL AND probes IS NULL`, [run.id])).rowCount === 1;
        // Both revocations (the run's own revocation may add a third) claimed and in flight, and a probe with them.
        return Number(pending) >= 2 && claimed === pending && probing && receiver.arrivals() > delivered + Number(pending);
      },
      60_000,
      "the fan-out and the probes are in flight",
    );

    // A TEFCA retrieval made to wait inside its transaction on the session's row, which this test holds. (At once:
    // a hung delivery times out after 10 seconds, and the kill must come before.)
    const holder = await database();
    holder.on("error", () => undefined); // the server goes away with the platform
    await holder.query("BEGIN");
    await holder.query(`SELECT 1 FROM "TefcaSession" WHERE id = $1 FOR UPDATE`, [cut]);
    const inFlight = api("POST", `/tefca/sessions/${cut}/retrieve`, { documentIds: selection }, { "If-Match": '"1"' }).catch((error: Error) => error);
    await eventually(
      async () => ((await client.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rowCount ?? 0) > 0,
      20_000,
      "the retrieval waits mid-transaction",
    );

    client.on("error", () => undefined);
    await kill9(before);
    expect(await inFlight).toBeInstanceOf(Error); // the client saw the connection drop
    await Promise.allSettled([holder.end(), client.end()]);

    receiver.setResponder(() => 200);
    await start();
    client = await database();
    client.on("error", () => undefined); // the platform's SIGTERM at the end stops the server under it

    // TEFCA: nothing of the cut request was written; the client's retry exports what a clean retrieval does.
    const after = (await api("GET", `/tefca/sessions/${cut}`)) as { state: string; version: number; retrievedResourceCount: number };
    expect(after).toMatchObject({ state: "discovered", version: 1, retrievedResourceCount: 0 });
    await api("POST", `/tefca/sessions/${cut}/retrieve`, { documentIds: selection }, { "If-Match": `"${after.version}"` });
    const clean = await tefca();
    await api("POST", `/tefca/sessions/${clean}/retrieve`, { documentIds: selection }, { "If-Match": '"1"' });
    const [cutExport, cleanExport] = [await api("GET", `/tefca/sessions/${cut}/export`), await api("GET", `/tefca/sessions/${clean}/export`)];
    expect(JSON.stringify(cutExport)).toContain("MedicationRequest");
    expect(canonical(cutExport)).toEqual(canonical(cleanExport));

    // Conformance: the dead process's claim on the probes holds a two-minute lease; the clock passes it here.
    await client.query(`UPDATE "ConformanceRun" SET "probesStartedAt" = now() - interval '3 minutes' WHERE id = $1`, [run.id]);
    await eventually(async () => ((await api("GET", `/conformance/runs/${run.id}`)) as { status: string }).status === "ended", 120_000, "the run ends");
    expect(((await api("GET", `/conformance/runs/${run.id}`)) as { verdict: string | null }).verdict).not.toBeNull();
    expect((await client.query(`SELECT probes FROM "ConformanceRun" WHERE id = $1`, [run.id])).rows[0].probes).not.toBeNull();

    // Webhooks: every event since the URL was set reached the receiver at least once, and no delivery is left.
    const events = (await client.query(`SELECT id FROM "Event" WHERE "applicationId" = $1 AND "createdAt" >= $2`, [application.id, since])).rows as { id: string }[];
    expect(events.length).toBeGreaterThanOrEqual(5);
    await eventually(async () => events.every((event) => receiver.received.some((item) => item.id === event.id)), 90_000, "every event is delivered");
    await eventually(async () => (await pendingDeliveries()) === 0, 60_000, "no delivery stays pending");
    expect(Number((await client.query(`SELECT count(*) AS n FROM "WebhookDelivery" WHERE "applicationId" = $1 AND status = 'failed'`, [application.id])).rows[0].n)).toBe(0);

    // No job stuck: each ended, completed or failed for all to see, and no import is left running.
    await eventually(
      async () => (await client.query(`SELECT 1 FROM pgboss.job WHERE name <> 'lifecycle' AND state IN ('created', 'retry', 'active')`)).rowCount === 0,
      60_000,
      "every job settles",
    );
    expect((await client.query(`SELECT 1 FROM "SourceImport" WHERE status = 'running'`)).rowCount).toBe(0);

    // The followed user's change feed, replayed onto what its client read before the crash, equals a fresh read;
    // the revoked ones read nothing.
    const get = (route: string) => api("GET", route);
    for (const category of categories) {
      const fresh = await readWholeCategory(get, followed, category);
      expect(fresh.size, category).toBeGreaterThan(0);
      const { cursor, records } = held.get(category)!;
      expect(await replayChangeFeed(get, followed, category, cursor, records), category).toEqual(fresh);
    }
    for (const subject of [revoked1, revoked2]) {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/users/${subject}/records/labs`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(404);
    }

    const last = platform!;
    last.child.kill("SIGTERM");
    expect(await last.exited).toBe(0);
  } finally {
    await client.end().catch(() => undefined);
    await receiver.close();
  }
});
