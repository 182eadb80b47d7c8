import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as reportRoute from "@/app/conformance/reports/[token]/route";
import { decryptSecret } from "@/lib/auth";
import { conformanceRunJob } from "@/lib/conformance";
import { db } from "@/lib/db";
import { sourceImportJob } from "@/lib/imports";
import { startWorker, type RunningWorker } from "@/lib/jobs";
import { stopSender } from "@/lib/queue";
import { sandboxSimulationJob } from "@/lib/simulation";
import { webhookDeliveryJob } from "@/lib/webhooks";
import { AcceptsStaleTimestamp, IgnoresRetryAfter, ReadsAfterRevocation, RejectsRedelivery, RejectsUnknownEvents, RereadsWholeCategory } from "@/examples/conformance-reference/broken";
import { ReferenceIntegration, type IntegrationOptions } from "@/examples/conformance-reference/integration";
import { startApiServer } from "@/test/api-server";
import { callDemo } from "@/test/route-calls";
import { createTestApplication } from "@/test/factories";
import { serveSyntheticEhr } from "@/test/sandbox";
import { waitFor } from "@/test/webhook-receiver";

type Run = {
  id: string;
  status: string;
  phase: string;
  verdict: string | null;
  run_key?: string;
  checks: { id: string; phase: string; status: string; summary: string; evidence: Record<string, unknown>; fix: string | null }[];
  links: { report: string; reportPage: string };
};

serveSyntheticEhr();

let api: Awaited<ReturnType<typeof startApiServer>>;
let worker: RunningWorker;
const previousScale = process.env.CHARTKEY_WEBHOOK_TIME_SCALE;

beforeAll(async () => {
  process.env.CHARTKEY_WEBHOOK_TIME_SCALE = "0.001";
  // The integrations' receivers listen on this machine: a developer's local receiver, which needs the opt-in.
  vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
  api = await startApiServer();
  worker = await startWorker(process.env.DATABASE_URL!, [conformanceRunJob, sandboxSimulationJob, sourceImportJob, webhookDeliveryJob]);
});

afterAll(async () => {
  process.env.CHARTKEY_WEBHOOK_TIME_SCALE = previousScale;
  await worker?.stop();
  await stopSender();
  await api?.close();
});

async function call(key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${api.origin}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Run & { error?: { code: string } } };
}

type Variant = new (options: IntegrationOptions) => ReferenceIntegration;

/**
 * One run against one integration, over real HTTP: an application with continuous sync starts a run with its own
 * sandbox key; the integration is configured with the run key, its receiver becomes the webhook URL, and it creates a
 * Connect session. The worker drives the run to its end.
 */
async function runAgainst(Integration: Variant) {
  const { application, sandboxKey } = await createTestApplication({ syncMode: "continuous" });
  const started = await call(sandboxKey, "POST", "/conformance/runs", { scenario: "baseline-adult", sync_mode: "continuous" });
  expect(started.status).toBe(201);
  const runKey = started.body.run_key!;
  const integration = new Integration({ apiBase: `${api.origin}/api/v1`, apiKey: runKey, signingSecret: decryptSecret(application.signingSecretEncrypted) });
  const webhookUrl = await integration.start();
  await db().application.update({ where: { id: application.id }, data: { webhookUrl } });
  try {
    await integration.connect();
    const run = await waitFor(
      async () => {
        const current = await call(sandboxKey, "GET", `/conformance/runs/${started.body.id}`);
        if (current.status !== 200) throw new Error(`GET run: ${current.status} ${JSON.stringify(current.body)}`);
        return current.body.status === "open" ? null : current.body;
      },
      "the run ends",
      120_000,
      // Polls count against the sandbox key's 300 requests per minute like any request: a slow machine's run lasts
      // long enough for 50 ms polls to spend it.
      500,
    );
    return { run, runKey, application, sandboxKey, integration };
  } finally {
    await integration.stop();
  }
}

const failedChecks = (run: Run) => run.checks.filter((check) => check.status === "failed").map((check) => check.id);
const ALL_CHECKS = ["connect_session", "retry_after", "change_feed", "stops_on_revocation", "webhook_valid", "webhook_corrupted", "webhook_redelivery"];

describe("a conformance run against a started server", () => {
  it("the reference integration earns a passing verdict; the run key is revoked and the report carries nothing private", async () => {
    const { run, runKey, application } = await runAgainst(ReferenceIntegration);
    expect(run.checks.map((check) => [check.id, check.status]), JSON.stringify(run.checks, null, 1)).toEqual(ALL_CHECKS.map((id) => [id, "passed"]));
    expect(run).toMatchObject({ status: "ended", phase: "ended", verdict: "passed" });
    const retry = run.checks.find((check) => check.id === "retry_after")!;
    expect(retry.evidence.forcedCount).toBe(2);
    expect((retry.evidence.waitedMs as number[]).every((waited) => waited >= 1000)).toBe(true);
    expect(run.checks.find((check) => check.id === "change_feed")!.evidence.feedReads).toBeGreaterThan(0);

    // Revoked when the run ended.
    expect((await call(runKey, "GET", "/app")).status).toBe(401);

    // The public report: no key, and nothing private in any field.
    const token = run.links.report.split("/").at(-1)!;
    const report = await callDemo(reportRoute.GET, `/conformance/reports/${token}`, { params: { token } });
    expect(report.status).toBe(200);
    expect(report.headers.get("cache-control")).toBe("no-store");
    expect(report.headers.get("access-control-allow-origin")).toBe("*");
    const stored = await db().conformanceRun.findUniqueOrThrow({ where: { id: run.id } });
    const sessions = await db().connectSession.findMany({ where: { conformanceRunId: run.id }, select: { id: true } });
    const records = await db().record.findMany({ where: { subjectId: stored.subjectId! }, select: { id: true } });
    const receipts = await db().consentReceipt.findMany({ where: { subjectId: stored.subjectId! }, select: { id: true } });
    const keys = await db().apiKey.findMany({ where: { applicationId: application.id }, select: { id: true, displayPrefix: true } });
    const secrets = [stored.subjectId!, ...sessions.map((s) => s.id), ...records.map((r) => r.id), ...receipts.map((r) => r.id), runKey, ...keys.flatMap((k) => [k.id, k.displayPrefix]), application.id, run.id];
    expect(records.length).toBeGreaterThan(0);
    const leaks: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (typeof value === "string") for (const secret of secrets) if (value.includes(secret)) leaks.push(`${path} carries ${secret}`);
      if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`));
      else if (value && typeof value === "object") for (const [name, item] of Object.entries(value)) walk(item, `${path}.${name}`);
    };
    walk(report.body, "report");
    expect(leaks).toEqual([]);
    expect(report.body).toMatchObject({ object: "conformance_report", application: { name: application.name }, verdict: "passed" });
  }, 180_000);

  it("each broken integration fails exactly the one check its mistake breaks, with evidence that says why", async () => {
    const [retry, revocation, stale, unknown, redelivery, reread] = await Promise.all([
      runAgainst(IgnoresRetryAfter),
      runAgainst(ReadsAfterRevocation),
      runAgainst(AcceptsStaleTimestamp),
      runAgainst(RejectsUnknownEvents),
      runAgainst(RejectsRedelivery),
      runAgainst(RereadsWholeCategory),
    ]);
    const check = (run: Run, id: string) => run.checks.find((candidate) => candidate.id === id)!;

    expect(failedChecks(retry.run)).toEqual(["retry_after"]);
    expect((check(retry.run, "retry_after").evidence.waitedMs as number[]).some((waited) => waited < 1000)).toBe(true);

    expect(failedChecks(revocation.run)).toEqual(["stops_on_revocation"]);
    expect(check(revocation.run, "stops_on_revocation").evidence.readsAfterSignal).toBeGreaterThan(0);

    expect(failedChecks(stale.run)).toEqual(["webhook_corrupted"]);
    expect(check(stale.run, "webhook_corrupted").evidence).toMatchObject({ staleTimestampStatus: 200, badSignatureStatus: 400, tamperedBodyStatus: 400, wrongSecretStatus: 400 });

    expect(failedChecks(unknown.run)).toEqual(["webhook_valid"]);
    expect(check(unknown.run, "webhook_valid").evidence.validStatus).toBe(400);

    expect(failedChecks(redelivery.run)).toEqual(["webhook_redelivery"]);
    expect(check(redelivery.run, "webhook_redelivery").evidence).toMatchObject({ validStatus: 200, redeliveryStatus: 409 });

    expect(failedChecks(reread.run)).toEqual(["change_feed"]);
    expect(check(reread.run, "change_feed").evidence.fullReads).toBeGreaterThan(0);

    for (const { run } of [retry, revocation, stale, unknown, redelivery, reread]) {
      expect(run.verdict).toBe("failed");
      for (const failed of run.checks.filter((candidate) => candidate.status === "failed")) expect(failed.fix).toEqual(expect.any(String));
    }
  }, 300_000);
});
