import { afterAll, beforeAll, expect, vi } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { conformanceRunJob } from "@/lib/conformance";
import { db } from "@/lib/db";
import { sourceImportJob } from "@/lib/imports";
import { startWorker, type RunningWorker } from "@/lib/jobs";
import { stopSender } from "@/lib/queue";
import { sandboxSimulationJob } from "@/lib/simulation";
import { webhookDeliveryJob } from "@/lib/webhooks";
import type { ReferenceIntegration, IntegrationOptions } from "@/examples/conformance-reference/integration";
import { startApiServer } from "@/test/api-server";
import { createTestApplication } from "@/test/factories";
import { serveSyntheticEhr } from "@/test/sandbox";
import { waitFor } from "@/test/webhook-receiver";

/**
 * The platform a conformance test runs against, from beforeAll to afterAll: the synthetic health systems, the API
 * over real HTTP and a worker with the jobs a run needs (`runDrivers` conformance pollers, each driving two runs).
 * Webhook retries are sped up, and the integrations' receivers on this machine need the private-webhooks opt-in.
 * Returns the API's origin, once started.
 */
export function serveConformanceRuns(options: { runDrivers?: number } = {}): () => string {
  serveSyntheticEhr();
  let api: Awaited<ReturnType<typeof startApiServer>> | undefined;
  let worker: RunningWorker | undefined;
  const previousScale = process.env.CHARTKEY_WEBHOOK_TIME_SCALE;
  beforeAll(async () => {
    process.env.CHARTKEY_WEBHOOK_TIME_SCALE = "0.001";
    vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
    api = await startApiServer();
    const drivers = { ...conformanceRunJob, pollers: options.runDrivers ?? conformanceRunJob.pollers };
    worker = await startWorker(process.env.DATABASE_URL!, [drivers, sandboxSimulationJob, sourceImportJob, webhookDeliveryJob]);
  });
  afterAll(async () => {
    process.env.CHARTKEY_WEBHOOK_TIME_SCALE = previousScale;
    await worker?.stop();
    await stopSender();
    await api?.close();
  });
  return () => {
    if (!api) throw new Error("the API is served from beforeAll on");
    return api.origin;
  };
}

export type Run = {
  id: string;
  status: string;
  phase: string;
  verdict: string | null;
  run_key?: string;
  phases: { name: string; status: string; endedBy: string | null }[];
  checks: { id: string; phase: string; status: string; summary: string; evidence: Record<string, unknown>; fix: string | null }[];
  links: { report: string; reportPage: string };
};

export type Variant = new (options: IntegrationOptions) => ReferenceIntegration;

export async function call(origin: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Run & { error?: { code: string } } };
}

/**
 * One run against one integration, over real HTTP: an application with the sync mode starts a run with its own
 * sandbox key; the integration is configured with the run key, its receiver becomes the webhook URL, and it creates a
 * Connect session. The worker drives the run to its end.
 */
export async function runAgainst(origin: string, Integration: Variant, options: { syncMode?: "one-time" | "continuous"; pollIntervalMs?: number } = {}) {
  const syncMode = options.syncMode ?? "continuous";
  const { application, sandboxKey } = await createTestApplication({ syncMode: syncMode === "continuous" ? "continuous" : "one_time" });
  const started = await call(origin, sandboxKey, "POST", "/conformance/runs", { scenario: "baseline-adult", sync_mode: syncMode });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const runKey = started.body.run_key!;
  const integration = new Integration({
    apiBase: `${origin}/api/v1`,
    apiKey: runKey,
    signingSecret: decryptSecret(application.signingSecretEncrypted),
    syncMode,
    pollIntervalMs: options.pollIntervalMs ?? 0,
  });
  const webhookUrl = await integration.start();
  await db().application.update({ where: { id: application.id }, data: { webhookUrl } });
  try {
    await integration.connect();
    const run = await waitFor(
      async () => {
        const current = await call(origin, sandboxKey, "GET", `/conformance/runs/${started.body.id}`);
        if (current.status !== 200) throw new Error(`GET run: ${current.status} ${JSON.stringify(current.body)}`);
        return current.body.status === "open" ? null : current.body;
      },
      "the run ends",
      300_000,
      // Polls count against the sandbox key's 300 requests per minute like any request.
      1_000,
    );
    return { run, runKey, application, sandboxKey, integration };
  } finally {
    await integration.stop();
  }
}

export const failedChecks = (run: Run) => run.checks.filter((check) => check.status === "failed").map((check) => check.id);
