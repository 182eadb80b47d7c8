import { setTimeout as sleep } from "node:timers/promises";
import type PgBoss from "pg-boss";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as reportRoute from "@/app/conformance/[[...path]]/route";
import { conformanceRunJob, conformanceRunsCycle } from "@/lib/conformance";
import { db } from "@/lib/db";
import { startQueue } from "@/lib/jobs";
import { getPlatformOpenApi } from "@/lib/openapi";
import { stopSender } from "@/lib/queue";
import { bearer, createTestApplication } from "@/test/factories";
import { callDemo, freshAddress } from "@/test/route-calls";
import { dispatchApiRequest } from "@/lib/routes";

type Json = Record<string, unknown> & { error?: { code: string }; run_key?: string; id?: string; status?: string; phase?: string; links?: { report: string } };

async function call(method: "GET" | "POST", path: string, key: string, options: { body?: string | object; query?: string } = {}) {
  const body = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  const response = await dispatchApiRequest(
    new Request(`http://localhost/api/v1${path}${options.query ?? ""}`, {
      method,
      headers: { ...(bearer(key) as Record<string, string>), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body,
    }),
  );
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
}

const start = (key: string, body: string | object = { scenario: "baseline-adult" }) => call("POST", "/conformance/runs", key, { body });
const list = (key: string, query = "") => call("GET", "/conformance/runs", key, { query });
const read = (key: string, runId: string) => call("GET", `/conformance/runs/${runId}`, key);
const advance = (key: string, runId: string) => call("POST", `/conformance/runs/${runId}/advance`, key, { body: "" });
const cancel = (key: string, runId: string) => call("POST", `/conformance/runs/${runId}/cancel`, key, { body: "" });
const code = (answer: { body: Json }) => answer.body.error?.code;
const tokenOf = (run: Json) => run.links!.report.split("/").at(-1)!;
const report = (token: string, address?: string) => callDemo(reportRoute.GET, `/conformance/reports/${token}`, { params: { token }, address });

describe("without a queue that can take the run", () => {
  it("POST /conformance/runs answers 503 conformance_unavailable and changes nothing", async () => {
    // A fresh database: no worker ever created the conformance-run queue, so no job can be queued.
    const { application, sandboxKey } = await createTestApplication();
    const keysBefore = await db().apiKey.count({ where: { applicationId: application.id } });
    const answer = await start(sandboxKey);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({ type: "api_error", code: "conformance_unavailable" });
    expect(await db().conformanceRun.count({ where: { applicationId: application.id } })).toBe(0);
    expect(await db().apiKey.count({ where: { applicationId: application.id } })).toBe(keysBefore);
    await stopSender();
  });
});

describe("conformance runs", () => {
  let queue: PgBoss;
  beforeAll(async () => {
    // The queue exists, but nothing works it: these tests move the runs themselves.
    queue = await startQueue(process.env.DATABASE_URL!, [conformanceRunJob]);
  });
  afterAll(async () => {
    await stopSender();
    await queue.stop({ graceful: false, wait: true });
  });

  it("POST creates an open run with its run key shown once; the key is a sandbox key tied to the run; GET never shows it", async () => {
    const { sandboxKey } = await createTestApplication();
    const created = await start(sandboxKey, { scenario: "baseline-adult", sync_mode: "one-time" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: "conformance_run", status: "open", phase: "session", scenario: "baseline-adult", sync_mode: "one-time", verdict: null, checks: [] });
    expect(created.body.id).toMatch(/^run_[A-Za-z0-9]{24}$/);
    expect(created.body.run_key).toMatch(/^ck_test_/);
    expect(created.body.waitingFor).toContain("Connect session");
    expect(tokenOf(created.body)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const key = await db().apiKey.findFirstOrThrow({ where: { conformanceRunId: created.body.id } });
    expect(key).toMatchObject({ environment: "sandbox", revokedAt: null });
    expect((await call("GET", "/app", created.body.run_key!)).status).toBe(200);

    const fetched = await read(sandboxKey, created.body.id!);
    expect(fetched.status).toBe(200);
    expect(fetched.body).not.toHaveProperty("run_key");
    expect(JSON.stringify(fetched.body)).not.toContain(created.body.run_key!);
    expect((await read(created.body.run_key!, created.body.id!)).status).toBe(200);
  });

  it("one open run per application (409 run_in_progress); another application is not held up", async () => {
    const { sandboxKey } = await createTestApplication();
    expect((await start(sandboxKey)).status).toBe(201);
    const second = await start(sandboxKey);
    expect(second.status).toBe(409);
    expect(code(second)).toBe("run_in_progress");
    expect((await start((await createTestApplication()).sandboxKey)).status).toBe(201);
  });

  it("every rule of the request: scenario, sync_mode, extra fields, size, keys and application states", async () => {
    const { sandboxKey, liveKey } = await createTestApplication();
    for (const scenario of ["rate-limited", "consent-revoked", "connect-failed", "no-such-scenario"]) {
      const answer = await start(sandboxKey, { scenario });
      expect([answer.status, code(answer)], scenario).toEqual([400, "invalid_scenario"]);
    }
    expect(code(await start(sandboxKey, { scenario: "baseline-adult", extra: true }))).toBe("invalid_request");
    expect(code(await start(sandboxKey, { scenario: "baseline-adult", sync_mode: "sometimes" }))).toBe("invalid_request");
    expect(code(await start(sandboxKey, {}))).toBe("invalid_request");
    const oneTimeContinuous = await start(sandboxKey, { scenario: "baseline-adult", sync_mode: "continuous" });
    expect([oneTimeContinuous.status, code(oneTimeContinuous)]).toEqual([400, "invalid_request"]);
    expect(oneTimeContinuous.body.error).toMatchObject({ message: expect.stringContaining("continuous") });
    const large = await start(sandboxKey, JSON.stringify({ scenario: "baseline-adult", note: "x".repeat(70 * 1024) }));
    expect([large.status, code(large)]).toEqual([413, "payload_too_large"]);
    expect(code(await start(sandboxKey, "{not json"))).toBe("invalid_json");

    const continuousApp = await createTestApplication({ syncMode: "continuous" });
    const continuous = await start(continuousApp.sandboxKey, { scenario: "pediatric-child", sync_mode: "continuous" });
    expect(continuous.status).toBe(201);
    expect(continuous.body).toMatchObject({ scenario: "pediatric-child", sync_mode: "continuous" });

    const live = await createTestApplication({ status: "active", productionEnabled: true });
    const liveAnswer = await start(live.liveKey);
    expect([liveAnswer.status, code(liveAnswer)]).toEqual([403, "sandbox_only"]);
    const notSandbox = await start(live.sandboxKey);
    expect([notSandbox.status, code(notSandbox)]).toEqual([409, "app_not_sandbox"]);
    const suspended = await createTestApplication({ status: "suspended" });
    const suspendedAnswer = await start(suspended.sandboxKey);
    expect([suspendedAnswer.status, code(suspendedAnswer)]).toEqual([403, "app_suspended"]);
    expect((await list(liveKey)).status).toBe(403);
  });

  it("GET /conformance/runs: newest first, without run keys, a page at a time; only the application's own runs", async () => {
    const { sandboxKey } = await createTestApplication();
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) {
      const created = await start(sandboxKey);
      ids.push(created.body.id!);
      await cancel(sandboxKey, created.body.id!);
    }
    const first = await list(sandboxKey, "?limit=2");
    expect(first.status).toBe(200);
    const data = first.body.data as Json[];
    expect(data.map((run) => run.id)).toEqual([ids[2], ids[1]]);
    expect(data.every((run) => !("run_key" in run))).toBe(true);
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = await list(sandboxKey, `?limit=2&cursor=${encodeURIComponent(first.body.nextCursor as string)}`);
    expect((second.body.data as Json[]).map((run) => run.id)).toEqual([ids[0]]);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(code(await list(sandboxKey, "?limit=0"))).toBe("invalid_pagination");
    expect(code(await list(sandboxKey, "?cursor=edited"))).toBe("invalid_cursor");

    const stranger = await createTestApplication();
    expect((await list(stranger.sandboxKey)).body.data).toEqual([]);
    expect(code(await read(stranger.sandboxKey, ids[0]!))).toBe("not_found");
    expect(code(await cancel(stranger.sandboxKey, ids[0]!))).toBe("not_found");
    expect(code(await advance(stranger.sandboxKey, ids[0]!))).toBe("not_found");
  });

  it("cancel revokes the run key; a run that is over answers 409 run_not_open to cancel and advance", async () => {
    const { sandboxKey } = await createTestApplication();
    const created = await start(sandboxKey);
    const cancelled = await cancel(sandboxKey, created.body.id!);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", phase: "ended", verdict: null, waitingFor: null, endedAt: expect.any(String) });
    expect(code(await call("GET", "/app", created.body.run_key!))).toBe("invalid_api_key");
    expect([(await cancel(sandboxKey, created.body.id!)).status, code(await cancel(sandboxKey, created.body.id!))]).toEqual([409, "run_not_open"]);
    expect(code(await advance(sandboxKey, created.body.id!))).toBe("run_not_open");
    // The application may start another run now.
    expect((await start(sandboxKey)).status).toBe(201);
  });

  it("advance: the session phase needs a completed Connect session, the probes phase cannot end while probes are sent (409 phase_not_advanceable)", async () => {
    const { sandboxKey } = await createTestApplication();
    const created = await start(sandboxKey);
    const early = await advance(sandboxKey, created.body.id!);
    expect([early.status, code(early)]).toEqual([409, "phase_not_advanceable"]);

    await db().conformanceRun.update({ where: { id: created.body.id! }, data: { phase: "webhook_probes", probesStartedAt: new Date() } });
    const sending = await advance(sandboxKey, created.body.id!);
    expect([sending.status, code(sending)]).toEqual([409, "phase_not_advanceable"]);
    expect((await read(sandboxKey, created.body.id!)).body).toMatchObject({ status: "open", phase: "webhook_probes" });
  });

  it("an early advance grades what was observed (inconclusive here) and the last one ends the run with a verdict, revoking its key", async () => {
    const { sandboxKey } = await createTestApplication();
    const created = await start(sandboxKey);
    const runId = created.body.id!;
    // As if its Connect session had completed: the phase after it.
    const at = new Date().toISOString();
    await db().conformanceRun.update({
      where: { id: runId },
      data: { phase: "rate_limits", timeline: [{ name: "session", startedAt: at, endedAt: at, endedBy: "completed" }, { name: "rate_limits", startedAt: at, endedAt: null, endedBy: null }] },
    });
    const phases: string[] = [];
    for (let step = 0; step < 3; step++) {
      const advanced = await advance(sandboxKey, runId);
      expect(advanced.status).toBe(200);
      phases.push(advanced.body.phase as string);
    }
    expect(phases).toEqual(["consent_revocation", "webhook_probes", "ended"]);
    const ended = (await read(sandboxKey, runId)).body as Json & { checks: { id: string; status: string; evidence: object }[]; phases: { name: string; endedBy: string | null }[] };
    expect(ended).toMatchObject({ status: "ended", verdict: "inconclusive" });
    expect(ended.checks.map((check) => [check.id, check.status])).toEqual([
      ["retry_after", "inconclusive"],
      ["stops_on_revocation", "inconclusive"],
      ["webhook_valid", "inconclusive"],
      ["webhook_corrupted", "inconclusive"],
      ["webhook_redelivery", "inconclusive"],
    ]);
    expect(ended.phases.map((phase) => phase.endedBy)).toEqual(["completed", "advanced", "advanced", "advanced"]);
    expect(code(await call("GET", "/app", created.body.run_key!))).toBe("invalid_api_key");
    expect(code(await advance(sandboxKey, runId))).toBe("run_not_open");
  });

  it("forces up to two 429s with Retry-After on the run key's record reads; other keys' and later reads are not forced", async () => {
    const { sandboxKey } = await createTestApplication();
    const created = await start(sandboxKey);
    await db().conformanceRun.update({ where: { id: created.body.id! }, data: { phase: "rate_limits" } });
    const readRecords = (key: string) => call("GET", "/users/u_000000000000000000nobody/records", key);
    expect(code(await readRecords(sandboxKey))).toBe("not_found");
    for (let attempt = 0; attempt < 2; attempt++) {
      const forced = await readRecords(created.body.run_key!);
      expect([forced.status, code(forced), forced.headers.get("retry-after")]).toEqual([429, "rate_limited", "1"]);
    }
    expect(code(await readRecords(created.body.run_key!))).toBe("not_found");
    expect(code(await read(created.body.run_key!, created.body.id!))).toBeUndefined();
    const run = await db().conformanceRun.findUniqueOrThrow({ where: { id: created.body.id! } });
    expect(run.forcedRateLimits).toBe(2);
  });

  it("a run without a Connect session expires after 60 minutes (key revoked); reports are kept 90 days, then deleted", async () => {
    const { sandboxKey } = await createTestApplication();
    const created = await start(sandboxKey);
    const runId = created.body.id!;
    const token = tokenOf(created.body);
    const now = new Date();
    await conformanceRunsCycle.run(new Date(now.getTime() + 59 * 60_000));
    expect((await read(sandboxKey, runId)).body).toMatchObject({ status: "open" });
    await conformanceRunsCycle.run(new Date(now.getTime() + 61 * 60_000));
    expect((await read(sandboxKey, runId)).body).toMatchObject({ status: "expired", phase: "ended", verdict: null });
    expect(code(await call("GET", "/app", created.body.run_key!))).toBe("invalid_api_key");
    expect((await report(token)).status).toBe(200);

    await conformanceRunsCycle.run(new Date(now.getTime() + 91 * 24 * 60 * 60_000));
    const gone = await report(token);
    expect([gone.status, (gone.body as Json).error?.code]).toEqual([404, "not_found"]);
    expect(await db().conformanceRun.count({ where: { id: runId } })).toBe(0);
    expect(await db().apiKey.count({ where: { conformanceRunId: runId } })).toBe(0);
  });

  it("a run cancelled before its creation finished answers 409 run_not_open, and its key is revoked unseen", async () => {
    const { application, sandboxKey } = await createTestApplication();
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      // Hold the queue's job table so the creation stops after writing the run, before it opens it.
      await other.query("BEGIN");
      await other.query("LOCK TABLE pgboss.job IN EXCLUSIVE MODE");
      const creating = start(sandboxKey);
      let run = null;
      for (let attempt = 0; attempt < 400 && !run; attempt++) {
        run = await db().conformanceRun.findFirst({ where: { applicationId: application.id, status: "creating" } });
        if (!run) await sleep(10);
      }
      expect(run).not.toBeNull();
      expect((await cancel(sandboxKey, run!.id)).body).toMatchObject({ status: "cancelled" });
      await other.query("ROLLBACK");
      const answer = await creating;
      expect([answer.status, code(answer)]).toEqual([409, "run_not_open"]);
      expect(answer.body).not.toHaveProperty("run_key");
      expect(await db().apiKey.findFirstOrThrow({ where: { conformanceRunId: run!.id } })).toMatchObject({ revokedAt: expect.any(Date) });
    } finally {
      await other.end();
    }
  });

  it("the report: no key, any origin, no-store, 404 for an unknown token, 429 with Retry-After past the per-address limit", async () => {
    const { sandboxKey, application } = await createTestApplication({ name: "Report App" });
    const created = await start(sandboxKey);
    const token = tokenOf(created.body);
    const answer = await report(token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
    expect(answer.body).toMatchObject({ object: "conformance_report", application: { name: "Report App" }, status: "open", phase: "session", scenario: "baseline-adult" });
    expect(JSON.stringify(answer.body)).not.toContain(application.id);
    expect(JSON.stringify(answer.body)).not.toContain(created.body.id!);
    const unknown = await report("A".repeat(43));
    expect([unknown.status, (unknown.body as Json).error?.code]).toEqual([404, "not_found"]);

    const address = freshAddress();
    for (let index = 0; index < 60; index++) expect((await report(token, address)).status).toBe(200);
    const limited = await report(token, address);
    expect([limited.status, (limited.body as Json).error?.code]).toEqual([429, "rate_limited"]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("the OpenAPI document lists every conformance operation with examples and its errors", () => {
    const paths = getPlatformOpenApi().paths as Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { example?: unknown }>; "x-error-codes"?: string[] }> }>>;
    const operations = [paths["/conformance/runs"]!.get!, paths["/conformance/runs"]!.post!, paths["/conformance/runs/{runId}"]!.get!, paths["/conformance/runs/{runId}/advance"]!.post!, paths["/conformance/runs/{runId}/cancel"]!.post!];
    expect(operations.map((operation) => operation.operationId)).toEqual(["listConformanceRuns", "startConformanceRun", "getConformanceRun", "advanceConformanceRun", "cancelConformanceRun"]);
    for (const operation of operations) {
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith("2"))![1];
      expect(success.content!["application/json"]!.example, operation.operationId).toBeDefined();
    }
    const createErrors = Object.values(paths["/conformance/runs"]!.post!.responses).flatMap((response) => response["x-error-codes"] ?? []);
    expect(createErrors).toEqual(expect.arrayContaining(["sandbox_only", "app_suspended", "app_not_sandbox", "run_in_progress", "run_not_open", "invalid_request", "invalid_scenario", "payload_too_large", "conformance_unavailable"]));
  });
});
