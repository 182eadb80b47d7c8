import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestApplication } from "@/test/factories";
import { flushRequestLog, recordRequest, type RequestLogEntry } from "./request-log";

const entry = (overrides: Partial<RequestLogEntry>): RequestLogEntry => ({
  requestId: "req_x",
  apiKeyId: null,
  agentCredentialId: null,
  applicationId: null,
  environment: null,
  conformanceRunId: null,
  method: "GET",
  route: "GET /app",
  path: "/api/v1/app",
  subjectId: null,
  status: 200,
  latencyMs: 3,
  createdAt: new Date(),
  ...overrides,
});

describe("the request log", () => {
  it("writes queued requests in one batch, every field as given, times in UTC", async () => {
    const { application, sandboxKeyId } = await createTestApplication();
    const at = new Date("2026-11-23T20:15:30.123Z");
    recordRequest(entry({ requestId: "req_log_a", apiKeyId: sandboxKeyId, applicationId: application.id, environment: "sandbox", subjectId: "u_1", createdAt: at }));
    recordRequest(entry({ requestId: "req_log_b", method: "POST", route: "POST /x", path: "/api/v1/x", status: 429, errorCode: "rate_limited", withCursor: true, latencyMs: 12, conformanceRunId: "run_1", agentCredentialId: "cred_1" }));
    await flushRequestLog();
    const rows = await db().requestLog.findMany({
      where: { requestId: { in: ["req_log_a", "req_log_b"] } },
      orderBy: { requestId: "asc" },
      omit: { id: true },
    });
    expect(rows).toEqual([
      { requestId: "req_log_a", apiKeyId: sandboxKeyId, agentCredentialId: null, applicationId: application.id, environment: "sandbox", conformanceRunId: null, method: "GET", route: "GET /app", path: "/api/v1/app", subjectId: "u_1", status: 200, errorCode: null, withCursor: false, latencyMs: 3, createdAt: at },
      { requestId: "req_log_b", apiKeyId: null, agentCredentialId: "cred_1", applicationId: null, environment: null, conformanceRunId: "run_1", method: "POST", route: "POST /x", path: "/api/v1/x", subjectId: null, status: 429, errorCode: "rate_limited", withCursor: true, latencyMs: 12, createdAt: expect.any(Date) },
    ]);
  });

  it("flushes a full batch without waiting for the timer", async () => {
    for (let i = 0; i < 500; i++) recordRequest(entry({ requestId: `req_full_${i}` }));
    await flushRequestLog();
    expect(await db().requestLog.count({ where: { requestId: { startsWith: "req_full_" } } })).toBe(500);
  });
});
