// Scale-out on one machine: `tsx scripts/bench/scale-out.ts` (SCALE_OUT_SOURCES, default 8; SCALE_OUT_DELIVERIES,
// default 2,000). On an ephemeral embedded PostgreSQL: two app instances (`test/run-api-server.ts`, the platform's
// route handlers in a process of their own, with CHARTKEY_WORKER=off) and two workers (`scripts/worker.ts`, what
// `npm run worker` runs), each its own process, all on the one database. Measured: one key's rate limit sent twice
// over, alternately to both instances; whole-source imports of sources connected through Connect, queued at once
// and run by the two workers; a webhook backlog to ten local receivers drained by the two workers. Counted: imports
// per source, records and feed entries, deliveries received per webhook-id and attempts logged.
// Prints a summary and, last, a `RESULT` line of JSON.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadAverage } from "./machine";
import { postmasterPid, treeCpuSeconds } from "./process-cpu";
import type { ScaleOutRun } from "./results";
import { startTsxProcess, stopProcesses } from "../tsx-process";

const SOURCES = Number(process.env.SCALE_OUT_SOURCES ?? "8");
const DELIVERIES = Number(process.env.SCALE_OUT_DELIVERIES ?? "2000");
const RECEIVERS = 10;
const RATE_LIMIT = 60;
const PROVIDER = "riverbend-health";
const PATIENT_KEY = "baseline-adult.primary";

process.env.CHARTKEY_SECRET ??= `bench-only-${randomBytes(24).toString("hex")}`;
process.env.LOG_LEVEL ??= "warn";
// The receivers listen on loopback, which only a deployment that opts in lets sandbox webhooks reach.
process.env.CHARTKEY_ALLOW_PRIVATE_WEBHOOKS = "on";
const { closeDb, db, ensureDatabase, migrate, startEmbeddedPostgres } = await import("@/lib/db");
const { createApplication } = await import("@/lib/applications");
const { authenticateKey, createApiKey } = await import("@/lib/auth");
const { attachSource, chooseProviders, createConnectSession } = await import("@/lib/connect");
const { issueAuthorizationCodeDirectly } = await import("@/lib/ehr");
const { newId } = await import("@/lib/ids");
const { startQueue } = await import("@/lib/jobs");
const { QUEUE, sendJob, stopSender } = await import("@/lib/queue");
const { beginAuthorization, completeAuthorization, ensureSandboxProviders } = await import("@/lib/sources");
const { JOBS } = await import("../platform-jobs");
const { serveRouteFiles } = await import("@/test/route-server");

const dataDir = path.join(tmpdir(), `ck-bench-scale-out-${process.pid}`);
const embedded = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await ensureDatabase(embedded.serverUrl, "chartkey_bench");
process.env.DATABASE_URL = embedded.databaseUrl("chartkey_bench");
await migrate(process.env.DATABASE_URL);
const postgresPid = postmasterPid(path.join(dataDir, "cluster"));

// The health system the workers import from: the synthetic EHR's route files, at the origin its providers name.
const ehr = await serveRouteFiles("ehr");
process.env.CHARTKEY_PUBLIC_URL = ehr.origin;
await ensureSandboxProviders();
// Creates the queues before any process works them, as a deployed database has them.
const boss = await startQueue(process.env.DATABASE_URL, JOBS);

// The receivers, one per port (its own endpoint), counting every request by webhook-id.
const arrivals = new Map<string, number>();
const receivers = await Promise.all(
  Array.from({ length: RECEIVERS }, async () => {
    const server = http.createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        const id = String(request.headers["webhook-id"]);
        arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
  }),
);

const children: ChildProcess[] = [];
const PROCESS_ENV = { CHARTKEY_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), CHARTKEY_WORKER: "off", LOG_LEVEL: "warn" };
const launch = async (script: string, ready: RegExp) => (await startTsxProcess(script, PROCESS_ENV, ready, children)).ready;
// All four at once: each compiles and loads the platform on its own, which is most of their start.
const [origins] = await Promise.all([
  Promise.all([0, 1].map(() => launch("test/run-api-server.ts", /serving (http:\/\/\S+)/))),
  Promise.all([0, 1].map(() => launch("scripts/worker.ts", /Chartkey worker running/))),
]);

const developer = await db().developer.create({ data: { id: newId("dev_"), email: "bench@example.test", name: "Bench", passwordHash: "unused" } });
let appCount = 0;
async function application(webhookUrl?: string) {
  const created = await createApplication({ developerId: developer.id, name: `Bench ${++appCount}`, webhookUrl });
  const { key } = await createApiKey({ applicationId: created.id, environment: "sandbox" });
  return { application: created, key };
}

// 1. One key's limit, sent twice over, alternately to both instances, all at once.
const limited = await application();
const rateLoad = loadAverage();
const statuses = await Promise.all(
  Array.from({ length: 2 * RATE_LIMIT }, (_, index) => fetch(`${origins[index % 2]}/api/v1/app`, { headers: { Authorization: `Bearer ${limited.key}` } }).then((response) => response.status)),
);
const rateLimit = { limit: RATE_LIMIT, sent: statuses.length, admitted: statuses.filter((status) => status === 200).length, refused: statuses.filter((status) => status === 429).length, load: rateLoad };
console.log(`rate limit ${RATE_LIMIT}/min, ${statuses.length} requests over two instances: ${rateLimit.admitted} admitted, ${rateLimit.refused} refused`);

// 2. Sources connected through Connect (continuous sync, so each import emits records.updated), imported at once.
const sources: { sourceId: string; subjectId: string; applicationId: string }[] = [];
for (let index = 0; index < SOURCES; index++) {
  const { application: app, key } = await application(receivers[index % RECEIVERS]!.url);
  await db().application.update({ where: { id: app.id }, data: { syncMode: "continuous" } });
  const session = await createConnectSession(await authenticateKey(`Bearer ${key}`), { categories: ["labs", "conditions", "medications"] }, ehr.origin);
  await chooseProviders(session.id, "sandbox", [PROVIDER]);
  const begun = await beginAuthorization({ connectSessionId: session.id, providerId: PROVIDER, redirectUri: `${ehr.origin}/connect/callback` });
  const callbackUrl = await issueAuthorizationCodeDirectly({ authorizationUrl: begun.authorizationUrl, patientKey: PATIENT_KEY });
  const completed = await completeAuthorization({ state: begun.state, callbackUrl });
  const sourceId = await attachSource(session.id, PROVIDER, completed.tokens);
  const { subjectId } = await db().source.findUniqueOrThrow({ where: { id: sourceId } });
  sources.push({ sourceId, subjectId, applicationId: app.id });
}
const sourceIds = sources.map((source) => source.sourceId);
const importLoad = loadAverage();
const importStarted = performance.now();
for (const sourceId of sourceIds) await sendJob(QUEUE.sourceImport, { sourceId });
for (;;) {
  const rows = await db().sourceImport.findMany({ where: { sourceId: { in: sourceIds } }, select: { status: true } });
  if (rows.length >= SOURCES && rows.every((row) => row.status !== "running")) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const importSeconds = (performance.now() - importStarted) / 1000;
// Each import's records.updated event (recorded once its import has committed), delivered by either worker.
const importApps = sources.map((source) => source.applicationId);
// A failed import emits none: after two minutes the counts below show what is missing.
for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
  const rows = await db().webhookDelivery.findMany({ where: { applicationId: { in: importApps } }, select: { applicationId: true, status: true, event: { select: { type: true } } } });
  const updated = new Set(rows.filter((row) => row.event.type === "records.updated").map((row) => row.applicationId));
  if (updated.size === SOURCES && rows.every((row) => row.status === "succeeded")) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const importRows = await db().sourceImport.findMany({ where: { sourceId: { in: sourceIds } }, select: { sourceId: true, status: true } });
const subjectIds = sources.map((source) => source.subjectId);
const records = await db().record.count({ where: { subjectId: { in: subjectIds } } });
const changes = await db().recordChange.count({ where: { subjectId: { in: subjectIds } } });
const imports = {
  sources: SOURCES,
  imports: importRows.length,
  completed: importRows.filter((row) => row.status === "completed").length,
  sourcesImportedOnce: sourceIds.filter((id) => importRows.filter((row) => row.sourceId === id).length === 1).length,
  records,
  changes,
  seconds: importSeconds,
  load: importLoad,
};
console.log(`${SOURCES} sources imported by two workers in ${importSeconds.toFixed(1)} s: ${imports.imports} imports (${imports.completed} completed, ${imports.sourcesImportedOnce} sources once), ${records} records, ${changes} feed entries`);

// 3. A webhook backlog to the ten receivers, written in bulk (not yet due: no due time), then made due at once and
// drained by both workers.
const hooks = await Promise.all(receivers.map((receiver) => application(receiver.url)));
const backlog = Array.from({ length: DELIVERIES }, (_, index) => ({ app: hooks[index % RECEIVERS]!.application, url: receivers[index % RECEIVERS]!.url, eventId: newId("evt_"), deliveryId: newId("whd_") }));
for (let start = 0; start < backlog.length; start += 1000) {
  const slice = backlog.slice(start, start + 1000);
  await db().event.createMany({ data: slice.map((row) => ({ id: row.eventId, applicationId: row.app.id, environment: "sandbox" as const, type: "records.updated", data: { subject: "u_scale_out" } })) });
  await db().webhookDelivery.createMany({ data: slice.map((row) => ({ id: row.deliveryId, eventId: row.eventId, applicationId: row.app.id, url: row.url, nextAttemptAt: null })) });
}
const deliveryLoad = loadAverage();
const cpuBefore = { database: treeCpuSeconds(postgresPid), all: treeCpuSeconds(process.pid) };
const deliveryStarted = performance.now();
await db().webhookDelivery.updateMany({ where: { applicationId: { in: hooks.map((hook) => hook.application.id) } }, data: { nextAttemptAt: new Date() } });
const backlogIds = new Set(backlog.map((row) => row.eventId));
const arrivedOf = () => [...arrivals].filter(([id]) => backlogIds.has(id));
while (arrivedOf().length < DELIVERIES) await new Promise((resolve) => setTimeout(resolve, 10));
const deliveryIds = backlog.map((row) => row.deliveryId);
while ((await db().webhookDelivery.count({ where: { id: { in: deliveryIds }, status: "succeeded" } })) < DELIVERIES) await new Promise((resolve) => setTimeout(resolve, 10));
const deliverySeconds = (performance.now() - deliveryStarted) / 1000;
const cpuAfter = { database: treeCpuSeconds(postgresPid), all: treeCpuSeconds(process.pid) };
const importEvents = await db().webhookDelivery.findMany({ where: { applicationId: { in: importApps } }, select: { eventId: true, status: true } });
const deliveries = {
  queued: DELIVERIES,
  received: arrivedOf().reduce((sum, [, count]) => sum + count, 0),
  receivedOnce: arrivedOf().filter(([, count]) => count === 1).length,
  attempts: await db().webhookDeliveryAttempt.count({ where: { deliveryId: { in: deliveryIds } } }),
  perSecond: DELIVERIES / deliverySeconds,
  cpuMs: { workers: ((cpuAfter.all - cpuAfter.database - (cpuBefore.all - cpuBefore.database)) * 1000) / DELIVERIES, database: ((cpuAfter.database - cpuBefore.database) * 1000) / DELIVERIES },
  importEvents: importEvents.length,
  importEventsDelivered: importEvents.filter((row) => row.status === "succeeded" && arrivals.get(row.eventId) === 1).length,
  load: deliveryLoad,
};
console.log(
  `${DELIVERIES} deliveries to ${RECEIVERS} receivers drained by two workers: ${deliveries.perSecond.toFixed(0)}/s; ${deliveries.received} received (${deliveries.receivedOnce} once), ${deliveries.attempts} attempts logged; the imports' ${deliveries.importEvents} events delivered once: ${deliveries.importEventsDelivered}`,
);

const failures = await db().webhookDeliveryAttempt.groupBy({ by: ["error"], where: { deliveryId: { in: deliveryIds }, error: { not: null } }, _count: true });
for (const failure of failures) console.log(`  failed attempts: ${failure._count} × ${failure.error}`);

const result: ScaleOutRun = { instances: 2, workers: 2, rateLimit, imports, deliveries };
console.log(`RESULT ${JSON.stringify(result)}`);

await stopProcesses(children);
for (const { server } of receivers) server.close();
await ehr.close();
await boss.stop({ graceful: false, wait: true });
await stopSender();
await closeDb();
await embedded.stop();
process.exit(0);
