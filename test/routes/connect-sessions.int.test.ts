import { describe, expect, it } from "vitest";
import { runLifecycle } from "@/lib/jobs";
import { LIFECYCLE_CYCLES } from "@/scripts/platform-jobs";
import { db } from "@/lib/db";
import { bearer, createTestApplication } from "@/test/factories";
import { dispatchApiRequest } from "@/lib/routes";

const BASE = "http://localhost/api/v1";
type Json = Record<string, unknown> & { error?: { code: string } };

async function create(key: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await dispatchApiRequest(
    new Request(`${BASE}/connect/sessions`, {
      method: "POST",
      headers: { ...(bearer(key) as Record<string, string>), "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
}

async function get(key: string, sessionId: string) {
  const response = await dispatchApiRequest(new Request(`${BASE}/connect/sessions/${sessionId}`, { headers: bearer(key) }));
  return { status: response.status, body: (await response.json()) as Json };
}

async function cancel(key: string, sessionId: string) {
  const response = await dispatchApiRequest(new Request(`${BASE}/connect/sessions/${sessionId}/cancel`, { method: "POST", headers: bearer(key) }));
  return { status: response.status, body: (await response.json()) as Json };
}

describe("POST /connect/sessions", () => {
  it("creates a pending session with a connect URL valid for 60 minutes", async () => {
    const { sandboxKey } = await createTestApplication();
    const before = Date.now();
    const created = await create(sandboxKey, { categories: ["labs", "medications"], externalUserId: "user-1", redirectUrl: "http://localhost:8080/back" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: "connect_session",
      status: "pending",
      environment: "sandbox",
      categories: ["medications", "labs"],
      grantedCategories: [],
      externalUserId: "user-1",
      redirectUrl: "http://localhost:8080/back",
      subject: null,
      receiptId: null,
      sources: [],
      simulation: null,
    });
    expect(created.body.id).toMatch(/^cs_[0-9A-Za-z]{24}$/);
    expect(created.body.connectUrl).toMatch(/^http:\/\/localhost\/connect\/[A-Za-z0-9_-]{43}$/);
    const expiresIn = Date.parse(created.body.expiresAt as string) - before;
    expect(expiresIn).toBeGreaterThan(59 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(60 * 60_000 + 5_000);
    // The link is shown again on reads, and only its hash is stored.
    expect((await get(sandboxKey, created.body.id as string)).body.connectUrl).toBe(created.body.connectUrl);
    const stored = await db().connectSession.findUniqueOrThrow({ where: { id: created.body.id as string } });
    expect(stored.connectTokenHash).not.toContain((created.body.connectUrl as string).split("/").pop());
  });

  it("answers the spec's errors for categories, fields and redirect URLs", async () => {
    const { sandboxKey, liveKey, application } = await createTestApplication({ categoryAllowlist: ["labs", "vitals"] });
    expect((await create(sandboxKey, { categories: ["labs", "nonsense"] })).body.error?.code).toBe("invalid_categories");
    expect((await create(sandboxKey, { categories: [] })).body.error?.code).toBe("invalid_categories");
    const outside = await create(sandboxKey, { categories: ["labs", "medications"] });
    expect([outside.status, outside.body.error?.code]).toEqual([403, "app_scope_exceeded"]);
    expect((await create(sandboxKey, { categories: ["labs"], surprise: true })).body.error?.code).toBe("invalid_request");
    expect((await create(sandboxKey, {})).body.error?.code).toBe("invalid_request");
    expect((await create(sandboxKey, { categories: ["labs"], consentDays: 366 })).body.error?.code).toBe("invalid_request");
    expect((await create(sandboxKey, { categories: ["labs"], externalUserId: "x".repeat(201) })).body.error?.code).toBe("invalid_request");
    expect((await create(sandboxKey, { categories: ["labs"], redirectUrl: "https://evil.example/cb" })).body.error?.code).toBe("invalid_request");

    await db().application.update({ where: { id: application.id }, data: { productionEnabled: true, redirectUrls: ["https://app.example/connected"] } });
    expect((await create(liveKey, { categories: ["labs"], redirectUrl: "https://app.example/connected" })).status).toBe(201);
    // Live keys do not get the sandbox's localhost allowance.
    expect((await create(liveKey, { categories: ["labs"], redirectUrl: "http://localhost:8080/back" })).body.error?.code).toBe("invalid_request");
  });

  it("honours Idempotency-Key: the same body replays the same session, another body conflicts", async () => {
    const { sandboxKey, application } = await createTestApplication();
    const first = await create(sandboxKey, { categories: ["labs"] }, { "Idempotency-Key": "create-1" });
    const replay = await create(sandboxKey, { categories: ["labs"] }, { "Idempotency-Key": "create-1" });
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await create(sandboxKey, { categories: ["vitals"] }, { "Idempotency-Key": "create-1" })).body.error?.code).toBe("idempotency_conflict");
    expect(await db().connectSession.count({ where: { applicationId: application.id } })).toBe(1);
  });
});

describe("GET and cancel", () => {
  it("show a session to its application and environment only", async () => {
    const mine = await createTestApplication();
    const theirs = await createTestApplication();
    const created = await create(mine.sandboxKey, { categories: ["labs"] });
    const sessionId = created.body.id as string;
    expect((await get(mine.sandboxKey, sessionId)).status).toBe(200);
    expect((await get(theirs.sandboxKey, sessionId)).body.error?.code).toBe("not_found");
    expect((await cancel(theirs.sandboxKey, sessionId)).body.error?.code).toBe("not_found");
    await db().application.update({ where: { id: mine.application.id }, data: { productionEnabled: true } });
    expect((await get(mine.liveKey, sessionId)).body.error?.code).toBe("not_found");
  });

  it("cancel ends a pending session (twice is harmless); a completed one is 409 session_completed", async () => {
    const { sandboxKey } = await createTestApplication();
    const pending = (await create(sandboxKey, { categories: ["labs"] })).body.id as string;
    expect((await cancel(sandboxKey, pending)).body.status).toBe("cancelled");
    expect((await cancel(sandboxKey, pending)).body.status).toBe("cancelled");

    const done = (await create(sandboxKey, { categories: ["labs"] })).body.id as string;
    await db().connectSession.update({ where: { id: done }, data: { status: "completed", completedAt: new Date() } });
    const refused = await cancel(sandboxKey, done);
    expect([refused.status, refused.body.error?.code]).toEqual([409, "session_completed"]);
    expect((await get(sandboxKey, done)).body.status).toBe("completed");
  });

  it("a session past its 60 minutes reads expired at once, and the lifecycle cycle marks it", async () => {
    const { sandboxKey } = await createTestApplication();
    const id = (await create(sandboxKey, { categories: ["labs"] })).body.id as string;
    await db().connectSession.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await get(sandboxKey, id)).body.status).toBe("expired");
    const outcomes = await runLifecycle(LIFECYCLE_CYCLES);
    expect(outcomes).toContainEqual({ name: "expire-connect-sessions", affected: 1 });
    expect((await db().connectSession.findUniqueOrThrow({ where: { id } })).status).toBe("expired");
    expect((await cancel(sandboxKey, id)).body.status).toBe("expired");
  });
});
