import { spawn, type ChildProcess } from "node:child_process";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { newId } from "@/lib/ids";
import { startQueue } from "@/lib/jobs";
import { JOBS } from "@/scripts/platform-jobs";
import { stopSender } from "@/lib/queue";
import { createTestApplication } from "@/test/factories";
import { startReceiver, waitFor } from "@/test/webhook-receiver";
import { redispatchDeliveries } from "./redispatch";

let boss: PgBoss;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const workers: ChildProcess[] = [];

function spawnWorker() {
  // One process (node with tsx's loader, not npx), so the kill reaches the worker itself.
  const worker = spawn(process.execPath, ["--import", "tsx", "test/run-worker.ts"], { env: { ...process.env }, stdio: "ignore" });
  workers.push(worker);
  return { worker, exited: new Promise((resolve) => worker.once("exit", resolve)) };
}

beforeAll(async () => {
  // The receiver listens on loopback, which only a deployment that opts in lets sandbox webhooks reach; the
  // spawned workers inherit the setting.
  vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
  boss = await startQueue(process.env.DATABASE_URL!, JOBS); // creates the queues, as a deployed database has them
});

afterAll(async () => {
  vi.unstubAllEnvs();
  for (const worker of workers) if (worker.exitCode === null) worker.kill("SIGKILL");
  await stopSender();
  await boss.stop({ graceful: false, wait: true });
  await receiver?.close();
});

describe("a worker killed with webhook deliveries pending", () => {
  it("loses none: after a restart every delivery arrives, and none is logged twice as succeeded", async () => {
    const { application } = await createTestApplication();
    receiver = await startReceiver(decryptSecret(application.signingSecretEncrypted));
    await db().application.update({ where: { id: application.id }, data: { webhookUrl: `${receiver.origin}/hooks` } });
    receiver.setResponder(() => "hang"); // the receiver takes every request and never answers

    const events = [];
    for (let index = 0; index < 12; index++) {
      events.push(await recordEvent({ applicationId: application.id, environment: "sandbox", type: "records.updated", data: { subject: `u_${index}` } }));
    }
    // Committed, but the process "crashed" before sending their jobs: outbox rows with no job.
    for (let index = 0; index < 3; index++) {
      const event = await db().event.create({ data: { id: newId("evt_"), applicationId: application.id, environment: "sandbox", type: "consent.granted", data: { subject: `u_unsent_${index}` } } });
      await db().webhookDelivery.create({ data: { id: newId("whd_"), eventId: event.id, applicationId: application.id, url: `${receiver.origin}/hooks`, nextAttemptAt: new Date() } });
      events.push(event);
    }

    const first = spawnWorker();
    await waitFor(() => receiver.arrivals() >= 12, "every queued delivery in flight", 60_000);
    first.worker.kill("SIGKILL");
    await first.exited;
    const stranded = await db().webhookDelivery.findMany({ where: { applicationId: application.id } });
    expect(stranded.every((delivery) => delivery.status === "pending")).toBe(true);
    expect(await db().webhookDeliveryAttempt.count({ where: { delivery: { applicationId: application.id } } })).toBe(0);

    // The next lifecycle cycle, once the dead worker's leases have passed: every due delivery without a live job
    // gets one: the 12 claimed by the dead worker, and the 3 never sent unless the dead worker's own lifecycle run
    // already queued them.
    receiver.setResponder(() => 200);
    const redispatched = await redispatchDeliveries(new Date(Date.now() + 20_000));
    expect(redispatched).toBeGreaterThanOrEqual(12);
    expect(redispatched).toBeLessThanOrEqual(15);

    const second = spawnWorker();
    await waitFor(
      async () => (await db().webhookDelivery.count({ where: { applicationId: application.id, status: "succeeded" } })) === 15,
      "every delivery to succeed after the restart",
      60_000,
    );
    const attempts = await db().webhookDeliveryAttempt.findMany({ where: { delivery: { applicationId: application.id } } });
    // The dead worker's claimed attempts (at least the 12 queued ones; its own lifecycle run may have sent the 3
    // unsent too) appear in the log as interrupted, and the 15 redispatched ones as answered.
    const claimedByTheDead = stranded.filter((delivery) => delivery.attempts === 1).length;
    expect(claimedByTheDead).toBeGreaterThanOrEqual(12);
    expect(attempts.filter((attempt) => attempt.error?.startsWith("interrupted"))).toHaveLength(claimedByTheDead);
    expect(attempts).toHaveLength(15 + claimedByTheDead);
    const succeededPerDelivery = new Map<string, number>();
    for (const attempt of attempts) {
      if (attempt.responseCode === 200) succeededPerDelivery.set(attempt.deliveryId, (succeededPerDelivery.get(attempt.deliveryId) ?? 0) + 1);
    }
    expect(succeededPerDelivery.size).toBe(15);
    expect([...succeededPerDelivery.values()].every((count) => count === 1)).toBe(true);
    expect(new Set(receiver.received.map((item) => item.id))).toEqual(new Set(events.map((event) => event.id)));
    expect(receiver.received).toHaveLength(15);
    expect(receiver.rejected).toEqual([]);

    second.worker.kill("SIGTERM");
    await second.exited;
  }, 120_000);
});
