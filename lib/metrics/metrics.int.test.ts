import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { grantReceipt, markExpiredReceipts } from "@/lib/consent";
import { boundedQuery, db, pgPool } from "@/lib/db";
import { toApiError } from "@/lib/http";
import { newId } from "@/lib/ids";
import { startWorker, type RunningWorker } from "@/lib/jobs";
import { stopSender } from "@/lib/queue";
import { webhookDeliveryJob } from "@/lib/webhooks";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { scrape } from "@/test/prometheus";
import { callApi } from "@/test/route-calls";
import { getSession, sandboxEvent, serveSyntheticEhr, simulatedUser } from "@/test/sandbox";
import { startReceiver, waitFor } from "@/test/webhook-receiver";
import { startConfiguredMetricsServer, startMetricsServer } from "./metrics-server";

const TOKEN = "metrics-test-token-0123456789";
let server: Server;
let url: string;
let worker: RunningWorker;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

serveSyntheticEhr();

beforeAll(async () => {
  // The receiver listens on loopback, which only a deployment that opts in lets sandbox webhooks reach.
  vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
  server = await startMetricsServer({ port: 0, token: TOKEN });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  worker = await startWorker(process.env.DATABASE_URL!, [webhookDeliveryJob]);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  server?.close();
  await worker?.stop();
  await stopSender();
  await receiver?.close();
});

describe("the metrics endpoint", () => {
  it("is off unless CHARTKEY_METRICS_PORT is set, and refuses to listen beyond loopback without a token", async () => {
    expect(await startConfiguredMetricsServer({})).toBeUndefined();
    await expect(startConfiguredMetricsServer({ CHARTKEY_METRICS_PORT: "0", CHARTKEY_METRICS_HOST: "0.0.0.0" })).rejects.toThrow(/CHARTKEY_METRICS_TOKEN/);
  });

  it("refuses a scrape without the deployment's bearer token, or with another", async () => {
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: "Bearer wrong-token-0123456789abc" } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
    expect((await fetch(url.replace("/metrics", "/"), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it("after a scripted flow, each series moved as the flow implies (read with a third-party Prometheus parser)", async () => {
    const { application, sandboxKey } = await createTestApplication();
    receiver = await startReceiver(decryptSecret(application.signingSecretEncrypted));
    await db().application.update({ where: { id: application.id }, data: { webhookUrl: `${receiver.origin}/hook` } });
    const before = await scrape(url, TOKEN);

    // A patient connected in the sandbox: a session, its simulation and the import, consent granted (and events sent).
    const { session, subject } = await simulatedUser(sandboxKey, "baseline-adult");
    expect(session.status).toBe("completed");
    const provider = (await db().source.findFirstOrThrow({ where: { subjectId: subject }, include: { provider: true } })).provider.name;
    // A read, then the patient's consent revoked from the sandbox.
    await getSession(sandboxKey, session.id);
    expect((await sandboxEvent(sandboxKey, subject, { type: "consent.revoke" })).status).toBe(200);
    // Another subject's receipt that has run out, marked expired by the lifecycle cycle.
    const other = await createTestSubject(application.id);
    await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: other.id, categories: ["labs"], expiresAt: new Date(Date.now() - 1000) });
    expect(await markExpiredReceipts()).toBeGreaterThanOrEqual(1);
    // The demo API's per-address limit: the 121st request from one address is refused.
    for (let request = 0; request < 121; request += 1) await callApi("/demo/v1/health", { address: "203.0.113.54" });
    // A statement the database does not finish within its bound, as the request path maps it (503).
    const timedOut = await pgPool().query(boundedQuery({ text: "SELECT pg_sleep(1)" }, 50)).catch((error: unknown) => error);
    expect(toApiError(timedOut, "req_metrics").code).toBe("database_unavailable");
    // A job nobody works on yet.
    await worker.boss.createQueue("metrics-test-queue");
    await worker.boss.send("metrics-test-queue", { n: 1 });
    // The webhooks of the flow (consent.granted, records, consent.revoked...) delivered.
    await waitFor(() => receiver.received.some((item) => item.type === "consent.revoked"), "consent.revoked delivered");
    await waitFor(async () => (await db().webhookDelivery.count({ where: { applicationId: application.id, status: "pending" } })) === 0, "no delivery pending");

    const after = await scrape(url, TOKEN);
    const moved = (name: string, labels?: Record<string, string>) => after.value(name, labels) - before.value(name, labels);

    // Requests: the flow's keyed requests counted under the sandbox, by operation; the latency histogram with them.
    expect(moved("chartkey_http_requests_total", { environment: "sandbox" })).toBeGreaterThanOrEqual(4);
    expect(after.labels("chartkey_http_requests_total").map((labels) => labels.operation)).toEqual(
      expect.arrayContaining(["POST /connect/sessions", "GET /connect/sessions/{sessionId}", "POST /sandbox/subjects/{subject}/events"]),
    );
    expect(moved("chartkey_http_requests_total", { operation: "GET /health", status: "429", environment: "none" })).toBe(1);
    expect(moved("chartkey_http_request_duration_seconds_count")).toBeGreaterThanOrEqual(125);
    // No label carries a subject, a key or a request id.
    const text = await (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    for (const secret of [subject, other.id, sandboxKey, "req_", "ck_"]) expect(text).not.toContain(secret);

    expect(moved("chartkey_rate_limit_refusals_total", { kind: "demo" })).toBe(1);
    expect(moved("chartkey_database_timeouts_total")).toBe(1);

    // The import: one completed for the provider, its duration observed, resources read.
    expect(moved("chartkey_imports_total", { provider, environment: "sandbox", outcome: "completed" })).toBe(1);
    expect(moved("chartkey_import_duration_seconds_count", { provider, outcome: "completed" })).toBe(1);
    expect(moved("chartkey_import_resources_total", { provider })).toBeGreaterThan(0);

    // Webhooks: every delivery of the application succeeded at its first attempt, each observed once.
    const delivered = await db().webhookDelivery.count({ where: { applicationId: application.id, status: "succeeded" } });
    expect(delivered).toBeGreaterThanOrEqual(2);
    expect(moved("chartkey_webhook_attempts_total", { outcome: "succeeded", retry: "false" })).toBe(delivered);
    expect(moved("chartkey_webhook_attempt_duration_seconds_count", { outcome: "succeeded" })).toBe(delivered);
    expect(after.value("chartkey_webhook_backlog", { application: "all" })).toBe(0);

    // Consent: the simulated patient's grant and the expiring one; the revocation (the sandbox revokes as the patient); the expiry.
    expect(moved("chartkey_consent_grants_total", { environment: "sandbox" })).toBe(2);
    expect(moved("chartkey_consent_revocations_total", { reason: "patient" })).toBe(1);
    expect(moved("chartkey_consent_expiries_total")).toBe(1);

    // Read at scrape time: the queue's waiting job, and this process's pool.
    expect(after.value("chartkey_queue_jobs", { queue: "metrics-test-queue", state: "waiting" })).toBe(1);
    expect(after.value("chartkey_queue_oldest_waiting_seconds", { queue: "metrics-test-queue" })).toBeGreaterThanOrEqual(0);
    expect(after.value("chartkey_database_pool_connections", { pool: "main" })).toBeGreaterThan(0);
    expect(after.types.get("chartkey_database_pool_waiting")).toBe("gauge");
    expect(after.types.get("chartkey_http_request_duration_seconds")).toBe("histogram");
    expect(after.value("chartkey_metrics_scrape_errors_total")).toBe(0);
  });

  it("names the applications with a delivery backlog (the top ones only) beside the total", async () => {
    const { application } = await createTestApplication({ webhookUrl: "https://receiver.invalid/hook" });
    // Pending deliveries no worker will reach yet: due in an hour.
    const event = await db().event.create({
      data: { id: newId("evt_"), applicationId: application.id, environment: "sandbox", type: "consent.granted", data: {} },
    });
    await db().webhookDelivery.createMany({
      data: [1, 2, 3].map(() => ({ id: newId("whd_"), eventId: event.id, applicationId: application.id, url: "https://receiver.invalid/hook", nextAttemptAt: new Date(Date.now() + 3_600_000) })),
    });
    const now = await scrape(url, TOKEN);
    expect(now.value("chartkey_webhook_backlog", { application: application.id })).toBe(3);
    expect(now.value("chartkey_webhook_backlog", { application: "all" })).toBeGreaterThanOrEqual(3);
    expect(now.value("chartkey_webhook_backlog_oldest_seconds", { application: application.id })).toBeGreaterThanOrEqual(0);
  });
});
