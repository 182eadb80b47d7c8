import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { db, pgPool } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { createTestApplication } from "@/test/factories";
import { startReceiver, waitFor } from "@/test/webhook-receiver";
import { claimDueAttempts, INTERRUPTED } from "./delivery-sql";
import { MAX_ATTEMPTS } from "./policy";

let receiver: Awaited<ReturnType<typeof startReceiver>>;
const workers: ChildProcess[] = [];
const started: ChildProcess[] = [];

function spawnWorker() {
  // One process (node with tsx's loader, not npx), so the kill reaches the worker itself.
  const worker = spawn(process.execPath, ["--import", "tsx", "test/run-worker.ts"], { env: { ...process.env }, stdio: ["ignore", "pipe", "ignore"] });
  worker.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("worker started") && started.push(worker));
  workers.push(worker);
  return { worker, exited: new Promise((resolve) => worker.once("exit", resolve)) };
}

beforeAll(async () => {
  // The receiver listens on loopback, which only a deployment that opts in lets sandbox webhooks reach; the
  // spawned workers inherit the setting.
  vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
});

afterAll(async () => {
  vi.unstubAllEnvs();
  for (const worker of workers) if (worker.exitCode === null) worker.kill("SIGKILL");
  await receiver?.close();
});

describe("a worker killed with webhook deliveries claimed", () => {
  it("loses none: once their leases pass, another worker logs the cut-off attempts as interrupted and delivers every one once", async () => {
    const { application } = await createTestApplication();
    receiver = await startReceiver(decryptSecret(application.signingSecretEncrypted));
    await db().application.update({ where: { id: application.id }, data: { webhookUrl: `${receiver.origin}/hooks` } });
    receiver.setResponder(() => "hang"); // the receiver takes every request and never answers

    const events = [];
    for (let index = 0; index < 15; index++) {
      events.push(await recordEvent({ applicationId: application.id, environment: "sandbox", type: "records.updated", data: { subject: `u_${index}` } }));
    }

    const first = spawnWorker();
    await waitFor(() => receiver.arrivals() >= 15, "every delivery in flight", 60_000);
    first.worker.kill("SIGKILL");
    await first.exited;
    // Every delivery is claimed by the dead worker: attempt 1 counted, leased, and nothing logged.
    const stranded = await db().webhookDelivery.findMany({ where: { applicationId: application.id } });
    expect(stranded).toHaveLength(15);
    expect(stranded.every((delivery) => delivery.status === "pending" && delivery.attempts === 1 && delivery.nextAttemptAt! > new Date())).toBe(true);
    expect(await db().webhookDeliveryAttempt.count({ where: { delivery: { applicationId: application.id } } })).toBe(0);

    // A worker started before the leases pass leaves the claimed deliveries alone ...
    receiver.setResponder(() => 200);
    const second = spawnWorker();
    await waitFor(() => started.length === 2, "the second worker running", 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.received).toHaveLength(0);
    // ... and claims them once they have passed (here moved into the past rather than waited for: 20 seconds).
    await db().webhookDelivery.updateMany({ where: { applicationId: application.id }, data: { nextAttemptAt: new Date(Date.now() - 1000) } });
    await waitFor(
      async () => (await db().webhookDelivery.count({ where: { applicationId: application.id, status: "succeeded" } })) === 15,
      "every delivery to succeed after the leases passed",
      60_000,
    );
    const attempts = await db().webhookDeliveryAttempt.findMany({ where: { delivery: { applicationId: application.id } } });
    expect(attempts).toHaveLength(30);
    expect(attempts.filter((attempt) => attempt.attempt === 1).every((attempt) => attempt.error === INTERRUPTED && attempt.responseCode === null)).toBe(true);
    expect(attempts.filter((attempt) => attempt.attempt === 2).every((attempt) => attempt.responseCode === 200)).toBe(true);
    expect(new Set(attempts.filter((attempt) => attempt.attempt === 2).map((attempt) => attempt.deliveryId)).size).toBe(15);
    expect(new Set(receiver.received.map((item) => item.id))).toEqual(new Set(events.map((event) => event.id)));
    expect(receiver.received).toHaveLength(15);
    expect(receiver.rejected).toEqual([]);

    second.worker.kill("SIGTERM");
    await second.exited;
  }, 120_000);

  it("ends a delivery failed when the attempt cut off was its last", async () => {
    const { application } = await createTestApplication({ webhookUrl: "http://127.0.0.1:9/never" });
    const event = await recordEvent({ applicationId: application.id, environment: "sandbox", type: "records.updated", data: { subject: "u_last" } });
    // Its eighth attempt claimed by a worker that died: the lease has passed and nothing was logged for it.
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
    await db().webhookDelivery.update({ where: { id: delivery.id }, data: { attempts: MAX_ATTEMPTS, lastAttemptAt: new Date(Date.now() - 30_000), nextAttemptAt: new Date(Date.now() - 10_000) } });
    const { rows } = await pgPool().query(claimDueAttempts({ now: new Date(), leaseUntil: new Date(Date.now() + 20_000), limit: 1000, maxAttempts: MAX_ATTEMPTS }));
    expect(rows.map((row: { id: string }) => row.id)).not.toContain(delivery.id);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ status: "failed", lastError: "interrupted", nextAttemptAt: null, attempts: MAX_ATTEMPTS });
    expect(await db().webhookDeliveryAttempt.findMany({ where: { deliveryId: delivery.id }, select: { attempt: true, error: true } })).toEqual([{ attempt: MAX_ATTEMPTS, error: INTERRUPTED }]);
  });
});
