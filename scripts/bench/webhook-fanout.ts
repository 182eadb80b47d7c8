// Webhook fan-out: `tsx scripts/bench/webhook-fanout.ts` (WEBHOOK_FANOUT_EVENTS, default 10,000, to each of
// WEBHOOK_FANOUT_ENDPOINTS endpoint counts, default 1,10,100). In one run, on an ephemeral embedded PostgreSQL, per
// endpoint count: a backlog of N pending deliveries spread over that many applications, each with its own local
// receiver (events and their pending delivery rows, written in bulk) drained by one worker, beside a bare loop that
// signs and posts the same payloads to the same receivers, 200 at a time, with no queue or database.
// Prints deliveries per second for both and, last, a `RESULT` line of JSON.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { loadAverage } from "./machine";
import { postmasterPid, treeCpuSeconds } from "./process-cpu";
import type { WebhookRun } from "./results";

const total = Number(process.env.WEBHOOK_FANOUT_EVENTS ?? "10000");
// "10x2": ten endpoints drained by two worker processes instead of one worker in this process (scripts/bench/scale-out.ts
// runs the whole two-instance, two-worker setup).
const runsAsked = (process.env.WEBHOOK_FANOUT_ENDPOINTS ?? "1,10,100").split(",").map((run) => {
  const [endpoints, workers] = run.split("x").map(Number);
  return { endpoints: endpoints!, workers: workers ?? 1 };
});
// The bench's own throwaway database: a throwaway secret seals its signing secret when none is configured.
process.env.CHARTKEY_SECRET ??= `bench-only-${randomBytes(24).toString("hex")}`;
// Its receiver listens on loopback, which only a deployment that opts in lets sandbox webhooks reach.
process.env.CHARTKEY_ALLOW_PRIVATE_WEBHOOKS = "on";
const { closeDb, db, ensureDatabase, migrate, startEmbeddedPostgres } = await import("@/lib/db");
const { createApplication } = await import("@/lib/applications");
const { decryptSecret } = await import("@/lib/auth");
const { newId } = await import("@/lib/ids");
const { startWorker } = await import("@/lib/jobs");
const { webhookDeliveryJob, webhookPayload } = await import("@/lib/webhooks");

const dataDir = path.join(tmpdir(), `ck-bench-webhooks-${process.pid}`);
const embedded = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await ensureDatabase(embedded.serverUrl, "chartkey_bench");
process.env.DATABASE_URL = embedded.databaseUrl("chartkey_bench");
await migrate(process.env.DATABASE_URL);
// CPU time is read per process tree: this process (its worker processes and PostgreSQL under it) and PostgreSQL's.
const postgresPid = postmasterPid(path.join(dataDir, "cluster"));
const cpuSeconds = () => {
  const database = treeCpuSeconds(postgresPid);
  return { database, bench: treeCpuSeconds(process.pid) - database };
};

// The receivers: one server per endpoint (its own port, so its own keep-alive pool), counting what arrives.
let received = 0;
async function startReceivers(count: number) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const receiver = http.createServer((request, response) => {
        request.resume();
        request.on("end", () => {
          received++;
          response.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      return { receiver, url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` };
    }),
  );
}

const developer = await db().developer.create({ data: { id: newId("dev_"), email: "bench@example.test", name: "Bench", passwordHash: "unused" } });
// As many requests at once as the platform's two pg-boss pollers of 100 jobs took before its deliveries became a
// table of their own (the worker now holds up to 500 attempts, at most 64 per endpoint), so runs stay comparable.
const concurrency = 200;
const results: WebhookRun[] = [];

/** `count` delivery workers, each its own process; resolves once all work the queue, to a function stopping them. */
async function startWorkerProcesses(count: number): Promise<() => Promise<void>> {
  const children = await Promise.all(
    Array.from({ length: count }, async () => {
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench/delivery-worker.ts"], { env: process.env, stdio: ["ignore", "pipe", "inherit"] });
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
        child.once("exit", (code) => reject(new Error(`a delivery worker exited with ${code}`)));
      });
      return child;
    }),
  );
  return async () => {
    await Promise.all(children.map((child) => new Promise((resolve) => child.once("exit", resolve).kill("SIGTERM"))));
  };
}

for (const { endpoints: endpointCount, workers } of runsAsked) {
  const receivers = await startReceivers(endpointCount);
  // One at a time: a hundred transactions at once would wait on the pool.
  const applications: Awaited<ReturnType<typeof createApplication>>[] = [];
  for (const [index, receiver] of receivers.entries()) applications.push(await createApplication({ developerId: developer.id, name: `Bench ${endpointCount}-${index}`, webhookUrl: receiver.url }));
  const events = Array.from({ length: total }, (_, index) => {
    const application = applications[index % applications.length]!;
    return {
      id: newId("evt_"),
      applicationId: application.id,
      environment: "sandbox" as const,
      type: "records.updated",
      data: { subject: `u_${index}`, categories: ["labs"] },
      createdAt: new Date(),
      url: receivers[index % receivers.length]!.url,
      signer: new Webhook(decryptSecret(application.signingSecretEncrypted)),
    };
  });

  // The bare loop: sign and post every payload, `concurrency` at a time, over a keep-alive agent.
  const agent = new http.Agent({ keepAlive: true });
  const bareLoad = loadAverage();
  const bareCpu = cpuSeconds();
  const bareStarted = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < events.length) {
        const event = events[next++]!;
        const body = webhookPayload(event);
        const now = new Date();
        await new Promise<void>((resolve, reject) => {
          const request = http.request(event.url, {
            method: "POST",
            agent,
            headers: { "content-type": "application/json", "webhook-id": event.id, "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": event.signer.sign(event.id, now, body) },
          });
          request.on("response", (response) => response.resume().on("end", resolve));
          request.on("error", reject);
          request.end(body);
        });
      }
    }),
  );
  const bareSeconds = (performance.now() - bareStarted) / 1000;
  const bareCpuMs = ((cpuSeconds().bench - bareCpu.bench) * 1000) / total;
  agent.destroy();

  // The platform: the backlog written in bulk, then drained by one worker.
  for (let start = 0; start < total; start += 1000) {
    const slice = events.slice(start, start + 1000);
    await db().event.createMany({ data: slice.map(({ id, applicationId, environment, type, data, createdAt }) => ({ id, applicationId, environment, type, data, createdAt })) });
    const deliveries = slice.map((event) => ({ id: newId("whd_"), eventId: event.id, applicationId: event.applicationId, url: event.url, nextAttemptAt: new Date() }));
    await db().webhookDelivery.createMany({ data: deliveries });
  }
  received = 0;
  const platformLoad = loadAverage();
  // Workers are timed from when they are ready (starting a process or pg-boss is not delivering), over the
  // deliveries made after that.
  const stopWorkers = workers === 1 ? (await startWorker(process.env.DATABASE_URL, [webhookDeliveryJob])).stop : await startWorkerProcesses(workers);
  const drainCpu = cpuSeconds();
  const drainStarted = performance.now();
  const before = received;
  const applicationIds = applications.map((application) => application.id);
  // The receivers' count says when the last delivery arrived; the database then says when its outcome is logged
  // (polled only then, so the bench's own queries do not load the database during the drain).
  while (received < total) await new Promise((resolve) => setTimeout(resolve, 10));
  while ((await db().webhookDelivery.count({ where: { status: "succeeded", applicationId: { in: applicationIds } } })) < total) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  const drainedCpu = cpuSeconds();
  const drained = total - before;
  const cpuMs = {
    platform: { worker: ((drainedCpu.bench - drainCpu.bench) * 1000) / drained, database: ((drainedCpu.database - drainCpu.database) * 1000) / drained },
    bare: bareCpuMs,
  };
  await stopWorkers();
  const attempts = await db().webhookDeliveryAttempt.count({ where: { delivery: { applicationId: { in: applicationIds } } } });
  for (const { receiver } of receivers) receiver.close();

  const platform = drained / drainSeconds;
  const bare = total / bareSeconds;
  results.push({ endpoints: endpointCount, workers, events: total, received, attempts, platform, bare, ratio: platform / bare, load: { platform: platformLoad, bare: bareLoad }, cpuMs });
  console.log(`webhook fan-out, ${total} events to ${endpointCount} endpoint(s) on local receivers, ${workers} worker(s):`);
  console.log(`  platform (queue, signing, attempt log): ${platform.toFixed(0)} deliveries/s (${drainSeconds.toFixed(1)} s, load ${platformLoad})`);
  console.log(`  bare loop (sign and post, ${concurrency} at a time): ${bare.toFixed(0)} deliveries/s (${bareSeconds.toFixed(1)} s, load ${bareLoad})`);
  console.log(`  receivers saw ${received} platform deliveries; ${attempts} attempts logged`);
  console.log(`  CPU per delivery: platform ${cpuMs.platform.worker.toFixed(2)} ms (worker and receivers) + ${cpuMs.platform.database.toFixed(2)} ms (PostgreSQL), bare loop ${cpuMs.bare.toFixed(2)} ms`);
}
console.log(`RESULT ${JSON.stringify(results)}`);

await closeDb();
await embedded.stop();
process.exit(0);
