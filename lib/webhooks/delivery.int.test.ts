import dns from "node:dns";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { startWorker, type RunningWorker } from "@/lib/jobs";
import { stopSender } from "@/lib/queue";
import { createTestApplication } from "@/test/factories";
import { startReceiver, waitFor } from "@/test/webhook-receiver";
import { webhookDeliveryJob } from "./deliver";
import { NOT_PUBLIC } from "@/lib/outbound";
import { postWebhook } from "./outbound";
import { resendDelivery, sendTestEvent } from "./resend";
import { SAMPLE_EVENT_TYPES } from "./schemas";
import { idPattern } from "@/lib/ids";

let worker: RunningWorker;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secret: string;
const previousScale = process.env.CHARTKEY_WEBHOOK_TIME_SCALE;

// Every application of this file shares one signing secret, so one receiver verifies them all.
async function app(path: string, overrides: { webhookUrl?: string } = {}) {
  const created = await createTestApplication({ webhookUrl: overrides.webhookUrl ?? `${receiver.origin}${path}` });
  await db().application.update({ where: { id: created.application.id }, data: { signingSecretEncrypted: sharedSealed } });
  return created.application;
}
let sharedSealed: string;

beforeAll(async () => {
  // The receiver listens on loopback, which only a deployment that opts in lets sandbox webhooks reach.
  vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
  process.env.CHARTKEY_WEBHOOK_TIME_SCALE = "0.0001"; // 1.6 ms, 6.4 ms, ... between attempts
  const seed = await createTestApplication();
  sharedSealed = seed.application.signingSecretEncrypted;
  secret = decryptSecret(sharedSealed);
  receiver = await startReceiver(secret);
  worker = await startWorker(process.env.DATABASE_URL!, [webhookDeliveryJob]);
});

afterEach(() => {
  receiver.setResponder(() => 200);
  vi.restoreAllMocks();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  process.env.CHARTKEY_WEBHOOK_TIME_SCALE = previousScale;
  await worker.stop();
  await stopSender();
  await receiver.close();
});

const settled = (deliveryId: string) => async () => {
  const row = await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, include: { attemptLog: { orderBy: { attempt: "asc" } } } });
  return row.status === "pending" ? null : row;
};

describe("signed webhook delivery", () => {
  it("delivers an event with Standard Webhooks headers a standardwebhooks receiver verifies, and logs the attempt", async () => {
    const application = await app("/ok");
    // The delivery as recordEvent stores it, read before its transaction commits: the worker, which may claim it
    // the moment it is committed, cannot have touched it yet.
    const { event, delivery } = await db().$transaction(async (tx) => {
      const recorded = await recordEvent({ applicationId: application.id, environment: "sandbox", type: "consent.granted", data: { subject: "u_1", receiptId: "cr_1" } }, tx);
      return { event: recorded, delivery: await tx.webhookDelivery.findFirstOrThrow({ where: { eventId: recorded.id } }) };
    });
    expect(delivery).toMatchObject({ status: "pending", url: `${receiver.origin}/ok`, attempts: 0 });

    const done = await waitFor(settled(delivery.id), "delivery");
    expect(done).toMatchObject({ status: "succeeded", attempts: 1, responseCode: 200, lastError: null, nextAttemptAt: null });
    expect(done.attemptLog).toEqual([expect.objectContaining({ attempt: 1, responseCode: 200, responseExcerpt: "ok", error: null })]);
    expect(done.attemptLog[0]!.latencyMs).toBeGreaterThanOrEqual(0);

    const got = receiver.received.filter((item) => item.id === event.id);
    expect(got).toHaveLength(1);
    expect(got[0]!.payload).toEqual({ id: event.id, type: "consent.granted", timestamp: event.createdAt.toISOString(), environment: "sandbox", data: { subject: "u_1", receiptId: "cr_1" } });
    expect(got[0]!.headers).toMatchObject({ "webhook-id": event.id, "content-type": "application/json", "user-agent": "Chartkey-Webhooks/1.0" });
    expect(got[0]!.headers["webhook-signature"]).toMatch(/^v1,/);
    expect(receiver.rejected).toEqual([]);
  });

  it("an event stored in a transaction is delivered once it commits, and not at all when it rolls back", async () => {
    const application = await app("/tx");
    let eventId = "";
    await db().$transaction(async (tx) => {
      eventId = (await recordEvent({ applicationId: application.id, environment: "sandbox", type: "records.updated", data: { subject: "u_2" } }, tx)).id;
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the worker claims due deliveries meanwhile
    });
    await waitFor(() => receiver.received.some((item) => item.id === eventId), "delivery after commit");

    let rolledBack = "";
    await expect(
      db().$transaction(async (tx) => {
        rolledBack = (await recordEvent({ applicationId: application.id, environment: "sandbox", type: "records.updated", data: { subject: "u_3" } }, tx)).id;
        await new Promise((resolve) => setTimeout(resolve, 1500)); // the worker claims due deliveries meanwhile
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    // An event recorded after the rollback is delivered: the worker has looked for due deliveries since.
    const later = (await recordEvent({ applicationId: application.id, environment: "sandbox", type: "records.updated", data: { subject: "u_3b" } })).id;
    await waitFor(() => receiver.received.some((item) => item.id === later), "the later event's delivery");
    expect(receiver.received.some((item) => item.id === rolledBack)).toBe(false);
    expect(await db().webhookDelivery.count({ where: { eventId: rolledBack } })).toBe(0);
  });

  it("an application without a webhook URL stores the event and no delivery", async () => {
    const { application } = await createTestApplication();
    const event = await recordEvent({ applicationId: application.id, environment: "sandbox", type: "sync.failed", data: { sourceId: "src_1" } });
    expect(await db().webhookDelivery.count({ where: { eventId: event.id } })).toBe(0);
  });

  it("retries a failing receiver through the queue with backoff, then succeeds", async () => {
    const application = await app("/flaky");
    let failures = 0;
    receiver.setResponder((path) => (path === "/flaky" && failures++ < 2 ? 503 : 200));
    const event = await recordEvent({ applicationId: application.id, environment: "sandbox", type: "records.updated", data: { subject: "u_4" } });
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
    const done = await waitFor(settled(delivery.id), "delivery after retries");
    expect(done.status).toBe("succeeded");
    expect(done.attemptLog.map((attempt) => [attempt.attempt, attempt.responseCode, attempt.error])).toEqual([
      [1, 503, "HTTP 503"],
      [2, 503, "HTTP 503"],
      [3, 200, null],
    ]);
    expect(done.attemptLog[0]!.responseExcerpt).toHaveLength(500);
    expect(receiver.received.filter((item) => item.id === event.id)).toHaveLength(3); // same webhook-id each time
  });

  it("does not follow redirects: a 3xx is a failed attempt", async () => {
    const application = await app("/moved");
    receiver.setResponder((path) => (path === "/moved" ? { redirect: `${receiver.origin}/target` } : 200));
    const event = await recordEvent({ applicationId: application.id, environment: "sandbox", type: "consent.revoked", data: { subject: "u_5" } });
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
    await waitFor(async () => (await db().webhookDeliveryAttempt.count({ where: { deliveryId: delivery.id } })) >= 2, "two attempts");
    const [first] = await db().webhookDeliveryAttempt.findMany({ where: { deliveryId: delivery.id }, orderBy: { attempt: "asc" } });
    expect(first).toMatchObject({ responseCode: 302, error: "redirect not followed", responseExcerpt: "moved" });
    expect(receiver.received.filter((item) => item.path === "/target")).toEqual([]);
  });

  it("refuses live destinations that are not public https, including a name that resolves to loopback, even where the sandbox may", async () => {
    const application = await app("/live", { webhookUrl: `https://localhost:${receiver.port}/live` });
    const event = await recordEvent({ applicationId: application.id, environment: "live", type: "consent.granted", data: { subject: "u_6" } });
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
    await waitFor(async () => (await db().webhookDeliveryAttempt.count({ where: { deliveryId: delivery.id } })) >= 1, "an attempt");
    const [first] = await db().webhookDeliveryAttempt.findMany({ where: { deliveryId: delivery.id } });
    expect(first).toMatchObject({ responseCode: null, responseExcerpt: null, error: `refused: ${NOT_PUBLIC}` });

    // http is refused for live; the sandbox may use it.
    expect(await postWebhook(`${receiver.origin}/live-http`, "live", "{}", {}, 10_000)).toMatchObject({ status: null, error: "refused: live webhooks must use https" });

    // DNS rebinding: a public-looking name that now resolves to loopback or the cloud metadata address is refused
    // when the connection is made, before any byte is sent, and the refusal names no address.
    const before = receiver.arrivals();
    const lookup = dns.lookup;
    vi.spyOn(dns, "lookup").mockImplementation(((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
      if (hostname === "hooks.rebind.example") return callback(null, [{ address: "127.0.0.1", family: 4 }]);
      if (hostname === "metadata.rebind.example") return callback(null, [{ address: "169.254.169.254", family: 4 }]);
      return (lookup as (...args: unknown[]) => void)(hostname, options, callback);
    }) as typeof dns.lookup);
    const rebound = await postWebhook(`https://hooks.rebind.example:${receiver.port}/x`, "live", "{}", {}, 10_000);
    expect(rebound).toMatchObject({ status: null, excerpt: null, error: `refused: ${NOT_PUBLIC}` });
    const metadata = await postWebhook(`http://metadata.rebind.example:${receiver.port}/x`, "sandbox", "{}", {}, 10_000);
    expect(metadata).toMatchObject({ status: null, excerpt: null, error: `refused: ${NOT_PUBLIC}` });
    expect(receiver.arrivals()).toBe(before);
  });

  it("lets the sandbox deliver to loopback by name where the deployment opts in", async () => {
    const application = await app("/by-name", { webhookUrl: `http://localhost:${receiver.port}/by-name` });
    const event = await recordEvent({ applicationId: application.id, environment: "sandbox", type: "consent.expired", data: { subject: "u_7" } });
    await waitFor(() => receiver.received.some((item) => item.id === event.id), "sandbox delivery to localhost");
  });

  it("a slow receiver for one application does not delay another application's delivery", async () => {
    const slow = await app("/slow");
    const fast = await app("/fast");
    receiver.setResponder((path) => (path === "/slow" ? { delayMs: 6000 } : 200));
    for (let index = 0; index < 4; index++) {
      await recordEvent({ applicationId: slow.id, environment: "sandbox", type: "records.updated", data: { subject: `u_slow_${index}` } });
    }
    await waitFor(() => receiver.arrivals() > 0 && true, "slow requests in flight");
    const started = Date.now();
    const event = await recordEvent({ applicationId: fast.id, environment: "sandbox", type: "records.updated", data: { subject: "u_fast" } });
    const got = await waitFor(() => receiver.received.find((item) => item.id === event.id), "fast delivery", 5000);
    expect(got.at - started).toBeLessThan(3000);
    expect(receiver.received.filter((item) => item.path === "/slow")).toHaveLength(0);
  });

  it("re-sends a failed delivery as a new delivery of the same event, and sends a test event on demand", async () => {
    const application = await app("/resend");
    receiver.setResponder((path) => (path === "/resend" ? 500 : 200));
    const event = await recordEvent({ applicationId: application.id, environment: "sandbox", type: "sync.failed", data: { sourceId: "src_9" } });
    const failed = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
    await waitFor(settled(failed.id), "delivery to fail", 20_000);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({ status: "failed", attempts: 8, responseCode: 500 });
    expect(await db().webhookDeliveryAttempt.count({ where: { deliveryId: failed.id } })).toBe(8);

    expect(await resendDelivery(failed.id, "app_someoneelse")).toEqual({ ok: false, reason: "not_found" });
    receiver.setResponder(() => 200);
    const resent = await resendDelivery(failed.id, application.id);
    if (!resent.ok) throw new Error(resent.reason);
    const done = await waitFor(settled(resent.deliveryId), "re-sent delivery");
    expect(done).toMatchObject({ status: "succeeded", eventId: event.id });
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({ status: "failed" });

    const test = await sendTestEvent(application.id, "sandbox");
    if (!test.ok) throw new Error(test.reason);
    const delivered = await waitFor(() => receiver.received.find((item) => item.id === test.eventId), "test event");
    expect(delivered.payload).toMatchObject({ type: "webhook.test", environment: "sandbox" });
    // A sample of every business event, delivered and signed like a real one, marked as a sample, naming nothing.
    for (const type of SAMPLE_EVENT_TYPES.filter((candidate) => candidate !== "webhook.test")) {
      const sample = await sendTestEvent(application.id, "sandbox", type);
      if (!sample.ok) throw new Error(sample.reason);
      const arrived = await waitFor(() => receiver.received.find((item) => item.id === sample.eventId), `sample ${type}`);
      expect(arrived.payload).toMatchObject({ type, environment: "sandbox", data: { sample: true, subject: expect.stringMatching(idPattern("u_")) } });
      expect(await db().subject.findUnique({ where: { id: (arrived.payload as { data: { subject: string } }).data.subject } })).toBeNull();
    }
    const { application: bare } = await createTestApplication();
    expect(await sendTestEvent(bare.id, "sandbox")).toEqual({ ok: false, reason: "no_webhook_url" });
  });
});
