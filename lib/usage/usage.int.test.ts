import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { grantReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { flushRequestLog, recordRequest, requestPath, type RequestLogEntry } from "@/lib/http";
import { createTestAgentCredential, createTestApplication, createTestSubject } from "@/test/factories";
import { latencyPercentiles, recentRequests, requestDetail, requestsPerDay } from "@/lib/usage";

let counter = 0;
function entry(overrides: Partial<RequestLogEntry> & Pick<RequestLogEntry, "applicationId" | "apiKeyId">): RequestLogEntry {
  counter += 1;
  return {
    requestId: `req_usage_${counter}`,
    agentCredentialId: null,
    environment: "sandbox",
    conformanceRunId: null,
    method: "GET",
    route: "GET /app",
    path: "/api/v1/app",
    subjectId: null,
    status: 200,
    errorCode: null,
    latencyMs: 10,
    createdAt: new Date(),
    ...overrides,
  };
}

describe("usage", () => {
  it("counts requests per UTC day per key, with 4xx and 5xx apart, and never another application's", async () => {
    const { application, sandboxKeyId, liveKeyId } = await createTestApplication();
    const other = await createTestApplication();
    const now = new Date("2026-11-23T12:00:00.000Z");
    const at = (iso: string) => new Date(iso);
    const mine = { applicationId: application.id };
    recordRequest(entry({ ...mine, apiKeyId: sandboxKeyId, createdAt: at("2026-11-23T00:00:00.000Z") }));
    recordRequest(entry({ ...mine, apiKeyId: sandboxKeyId, createdAt: at("2026-11-23T11:00:00.000Z"), status: 404, errorCode: "not_found" }));
    recordRequest(entry({ ...mine, apiKeyId: sandboxKeyId, createdAt: at("2026-11-22T23:59:59.999Z"), status: 500, errorCode: "internal_error" }));
    recordRequest(entry({ ...mine, apiKeyId: liveKeyId, environment: "live", createdAt: at("2026-11-22T10:00:00.000Z") }));
    recordRequest(entry({ ...mine, apiKeyId: sandboxKeyId, createdAt: at("2026-11-20T10:00:00.000Z") })); // outside 3 days
    recordRequest(entry({ applicationId: other.application.id, apiKeyId: other.sandboxKeyId, createdAt: at("2026-11-23T10:00:00.000Z") }));
    await flushRequestLog();

    const usage = await requestsPerDay({ applicationId: application.id, days: 3, now });
    expect(usage.days).toEqual(["2026-11-21", "2026-11-22", "2026-11-23"]);
    expect(usage.rows).toEqual(
      expect.arrayContaining([
        { day: "2026-11-22", apiKeyId: sandboxKeyId, keyName: "Default key", total: 1, clientErrors: 0, serverErrors: 1 },
        { day: "2026-11-22", apiKeyId: liveKeyId, keyName: "Default key", total: 1, clientErrors: 0, serverErrors: 0 },
        { day: "2026-11-23", apiKeyId: sandboxKeyId, keyName: "Default key", total: 2, clientErrors: 1, serverErrors: 0 },
      ]),
    );
    expect(usage.rows).toHaveLength(3);
    expect(usage.totals).toEqual([
      { day: "2026-11-21", total: 0, clientErrors: 0, serverErrors: 0, clientErrorRate: 0, serverErrorRate: 0 },
      { day: "2026-11-22", total: 2, clientErrors: 0, serverErrors: 1, clientErrorRate: 0, serverErrorRate: 0.5 },
      { day: "2026-11-23", total: 2, clientErrors: 1, serverErrors: 0, clientErrorRate: 0.5, serverErrorRate: 0 },
    ]);
    expect((await requestsPerDay({ applicationId: application.id, days: 3, now, environment: "live" })).rows).toHaveLength(1);
    expect((await requestsPerDay({ applicationId: other.application.id, days: 3, now })).rows).toEqual([
      { day: "2026-11-23", apiKeyId: other.sandboxKeyId, keyName: "Default key", total: 1, clientErrors: 0, serverErrors: 0 },
    ]);
  });

  it("reports p50 and p99 latency of the application's requests since a time", async () => {
    const { application, sandboxKeyId } = await createTestApplication();
    const other = await createTestApplication();
    for (let ms = 1; ms <= 100; ms++) recordRequest(entry({ applicationId: application.id, apiKeyId: sandboxKeyId, latencyMs: ms }));
    recordRequest(entry({ applicationId: other.application.id, apiKeyId: other.sandboxKeyId, latencyMs: 100_000 }));
    recordRequest(entry({ applicationId: application.id, apiKeyId: sandboxKeyId, latencyMs: 100_000, createdAt: new Date(Date.now() - 2 * 3600_000) }));
    await flushRequestLog();
    const stats = await latencyPercentiles({ applicationId: application.id, since: new Date(Date.now() - 3600_000) });
    expect(stats.count).toBe(100);
    expect(stats.p50).toBeCloseTo(50.5);
    expect(stats.p99).toBeCloseTo(99.01);
    expect(await latencyPercentiles({ applicationId: application.id, since: new Date(Date.now() + 3600_000) })).toEqual({ count: 0, p50: null, p99: null });
  });

  it("pages the recent request log newest first, filtered by status class, code and key, scoped to the application", async () => {
    const { application, sandboxKeyId, liveKeyId } = await createTestApplication();
    const other = await createTestApplication();
    const base = Date.now() - 60_000;
    for (let i = 0; i < 7; i++) {
      recordRequest(entry({ applicationId: application.id, apiKeyId: i % 2 ? liveKeyId : sandboxKeyId, status: i === 3 ? 429 : i === 5 ? 503 : 200, errorCode: i === 3 ? "rate_limited" : null, createdAt: new Date(base + Math.floor(i / 2) * 1000), requestId: `req_page_${i}` }));
    }
    recordRequest(entry({ applicationId: other.application.id, apiKeyId: other.sandboxKeyId, requestId: "req_other" }));
    await flushRequestLog();

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await recentRequests({ applicationId: application.id, limit: 3, cursor });
      seen.push(...page.items.map((item) => item.requestId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(["req_page_6", "req_page_5", "req_page_4", "req_page_3", "req_page_2", "req_page_1", "req_page_0"]);

    const limited = await recentRequests({ applicationId: application.id, status: "4xx", limit: 10 });
    expect(limited.items).toEqual([expect.objectContaining({ requestId: "req_page_3", status: 429, errorCode: "rate_limited", apiKeyId: liveKeyId, keyName: "Default key", keyPrefix: expect.stringMatching(/^ck_live_/) })]);
    expect((await recentRequests({ applicationId: application.id, status: 503, limit: 10 })).items.map((item) => item.requestId)).toEqual(["req_page_5"]);
    expect((await recentRequests({ applicationId: application.id, apiKeyId: sandboxKeyId, limit: 10 })).items).toHaveLength(4);
    expect((await recentRequests({ applicationId: application.id, apiKeyId: other.sandboxKeyId, limit: 10 })).items).toEqual([]);

    const first = await recentRequests({ applicationId: application.id, limit: 1 });
    await expect(recentRequests({ applicationId: other.application.id, limit: 1, cursor: first.nextCursor! })).rejects.toMatchObject({ code: "invalid_cursor" });
  });

  it("opens one logged request with its path, key and, for a credential read, the purpose; never another application's row", async () => {
    const { application, sandboxKeyId } = await createTestApplication();
    const other = await createTestApplication();
    const subject = await createTestSubject(application.id);
    const receipt = await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs"] });
    const credential = await createTestAgentCredential({ receipt, parentKeyId: sandboxKeyId, purpose: "Summarise this week's glucose readings" });
    const requestId = `req_detail_${randomBytes(6).toString("hex")}`;
    recordRequest(
      entry({
        applicationId: application.id,
        apiKeyId: sandboxKeyId,
        agentCredentialId: credential.id,
        requestId,
        route: "GET /users/{subject}/records/{category}",
        path: `/api/v1/users/${subject.id}/records/labs`,
        subjectId: subject.id,
        status: 403,
        errorCode: "consent_revoked",
        latencyMs: 17,
      }),
    );
    await flushRequestLog();
    const row = await db().requestLog.findFirstOrThrow({ where: { requestId } });

    expect(await requestDetail({ applicationId: application.id, id: row.id.toString() })).toEqual({
      id: row.id.toString(),
      createdAt: row.createdAt,
      method: "GET",
      route: "GET /users/{subject}/records/{category}",
      path: `/api/v1/users/${subject.id}/records/labs`,
      status: 403,
      errorCode: "consent_revoked",
      requestId,
      latencyMs: 17,
      environment: "sandbox",
      subjectId: subject.id,
      key: { id: sandboxKeyId, name: "Default key", displayPrefix: expect.stringMatching(/^ck_test_/) },
      credential: { id: credential.id, purpose: "Summarise this week's glucose readings" },
    });
    expect(await requestDetail({ applicationId: other.application.id, id: row.id.toString() })).toBeNull();
    for (const malformed of ["0", "-1", "abc", "99999999999999999999", "1e3"]) expect(await requestDetail({ applicationId: application.id, id: malformed })).toBeNull();
  });

  it("keeps the path without its query string", () => {
    expect(requestPath("http://127.0.0.1:3000/api/v1/users/u_1/records/labs?cursor=abc&limit=5")).toBe("/api/v1/users/u_1/records/labs");
    expect(requestPath("https://chartkey.example/api/v1/app")).toBe("/api/v1/app");
  });
});
