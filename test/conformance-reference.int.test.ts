import { describe, expect, it } from "vitest";
import * as reportRoute from "@/app/conformance/[[...path]]/route";
import { db } from "@/lib/db";
import { ReferenceIntegration } from "@/examples/conformance-reference/integration";
import { call, runAgainst, serveConformanceRuns } from "@/test/conformance-runs";
import { callDemo } from "@/test/route-calls";

const origin = serveConformanceRuns();

const ALL_CHECKS = ["connect_session", "retry_after", "change_feed", "stops_on_revocation", "webhook_valid", "webhook_corrupted", "webhook_redelivery"];

describe("a conformance run against a started server", () => {
  it("the reference integration earns a passing verdict; the run key is revoked and the report carries nothing private", async () => {
    const { run, runKey, application } = await runAgainst(origin(), ReferenceIntegration);
    expect(run.checks.map((check) => [check.id, check.status]), JSON.stringify(run.checks, null, 1)).toEqual(ALL_CHECKS.map((id) => [id, "passed"]));
    expect(run).toMatchObject({ status: "ended", phase: "ended", verdict: "passed" });
    const retry = run.checks.find((check) => check.id === "retry_after")!;
    expect(retry.evidence.forcedCount).toBe(2);
    expect((retry.evidence.waitedMs as number[]).every((waited) => waited >= 1000)).toBe(true);
    expect(run.checks.find((check) => check.id === "change_feed")!.evidence.feedReads).toBeGreaterThan(0);

    // Revoked when the run ended.
    expect((await call(origin(), runKey, "GET", "/app")).status).toBe(401);

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
});
