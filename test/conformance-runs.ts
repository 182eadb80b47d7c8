import { expect } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import type { ReferenceIntegration, IntegrationOptions } from "@/examples/conformance-reference/integration";
import { createTestApplication } from "@/test/factories";
import { waitFor } from "@/test/webhook-receiver";

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
