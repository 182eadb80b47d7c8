import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { bearer, createTestApplication, routeContext } from "@/test/factories";
import { testOperation } from "@/test/operations";
import { route } from "@/lib/api";

// A create operation built on the real pipeline: each call inserts one ConnectSession row.
const createSession = route(
  testOperation({
    method: "POST",
    path: "/connect/sessions",
    auth: "key",
    idempotent: true,
    // `reference` is unused: it gives bodies more than one key, nested too, to send in another order.
    body: z.strictObject({ categories: z.array(z.string()), reference: z.object({ system: z.string(), value: z.string() }).optional() }),
  }),
  async ({ auth, body }) => {
    const session = await db().connectSession.create({
      data: {
        id: newId("cs_"),
        applicationId: auth.application.id,
        environment: auth.environment,
        categories: body.categories,
        connectTokenHash: randomBytes(32).toString("hex"),
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    return { status: 201, body: { id: session.id, categories: session.categories } };
  },
);

// An idempotent create under a path parameter: each call adds one note to the session the path names.
const addNote = route(
  testOperation({
    method: "POST",
    path: "/connect/sessions/{sessionId}/notes",
    auth: "key",
    idempotent: true,
    params: z.object({ sessionId: z.string() }),
    body: z.strictObject({ note: z.string() }),
  }),
  async ({ params, body }) => ({ status: 201, body: { id: newId("evt_"), sessionId: params.sessionId, note: body.note } }),
);

function postNote(key: string, sessionId: string, note: string, idempotencyKey: string) {
  const headers = { ...(bearer(key) as Record<string, string>), "content-type": "application/json", "Idempotency-Key": idempotencyKey };
  const request = new Request(`http://localhost/api/v1/connect/sessions/${sessionId}/notes`, { method: "POST", headers, body: JSON.stringify({ note }) });
  return addNote(request, routeContext({ sessionId }));
}

function post(key: string, body: unknown, idempotencyKey?: string) {
  const headers: Record<string, string> = { ...(bearer(key) as Record<string, string>), "content-type": "application/json" };
  if (idempotencyKey !== undefined) headers["Idempotency-Key"] = idempotencyKey;
  return createSession(new Request("http://localhost/api/v1/connect/sessions", { method: "POST", headers, body: JSON.stringify(body) }));
}

async function sessionCount(applicationId: string) {
  return db().connectSession.count({ where: { applicationId } });
}

describe("Idempotency-Key on POST creates", () => {
  it("a replay returns the same response with Idempotent-Replayed: true and creates nothing new", async () => {
    const { application, sandboxKey } = await createTestApplication();
    const first = await post(sandboxKey, { categories: ["labs"], reference: { system: "crm", value: "42" } }, "key-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const created = await first.json();

    // Key order does not make it another request: the same body with its keys (and its nested keys) reordered.
    const replay = await post(sandboxKey, { reference: { value: "42", system: "crm" }, categories: ["labs"] }, "key-1");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.json()).toEqual(created);
    expect(await sessionCount(application.id)).toBe(1);
  });

  it("the same key with another body is 409 idempotency_conflict", async () => {
    const { application, sandboxKey } = await createTestApplication();
    expect((await post(sandboxKey, { categories: ["labs"] }, "key-2")).status).toBe(201);
    const conflict = await post(sandboxKey, { categories: ["vitals"] }, "key-2");
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).error.code).toBe("idempotency_conflict");
    expect(await sessionCount(application.id)).toBe(1);
  });

  it("the same key and body on another path (another resource) is 409 idempotency_conflict, not the first path's answer", async () => {
    const { sandboxKey } = await createTestApplication();
    const first = await postNote(sandboxKey, "cs_first", "hello", "note-1");
    expect(first.status).toBe(201);
    const created = await first.json();
    expect(created).toMatchObject({ sessionId: "cs_first" });
    const replay = await postNote(sandboxKey, "cs_first", "hello", "note-1");
    expect([replay.status, replay.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(await replay.json()).toEqual(created);
    const elsewhere = await postNote(sandboxKey, "cs_second", "hello", "note-1");
    expect(elsewhere.status).toBe(409);
    expect((await elsewhere.json()).error.code).toBe("idempotency_conflict");
  });

  it("a key over 200 characters is 400 invalid_idempotency_key; 200 is accepted", async () => {
    const { application, sandboxKey } = await createTestApplication();
    const tooLong = await post(sandboxKey, { categories: [] }, "k".repeat(201));
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).error.code).toBe("invalid_idempotency_key");
    expect(await sessionCount(application.id)).toBe(0);
    expect((await post(sandboxKey, { categories: [] }, "k".repeat(200))).status).toBe(201);
  });

  it("20 concurrent duplicates create exactly one resource and all answer with it", async () => {
    const { application, sandboxKey } = await createTestApplication();
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(sandboxKey, { categories: ["labs"] }, "race")));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    expect(await sessionCount(application.id)).toBe(1);
  });

  it("keys are scoped to application and environment", async () => {
    const one = await createTestApplication({ productionEnabled: true });
    const two = await createTestApplication();
    const a = await (await post(one.sandboxKey, { categories: [] }, "shared")).json();
    const b = await (await post(one.liveKey, { categories: [] }, "shared")).json();
    const c = await (await post(two.sandboxKey, { categories: [] }, "shared")).json();
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    expect(await sessionCount(one.application.id)).toBe(2);
  });

  it("without a key every POST creates", async () => {
    const { application, sandboxKey } = await createTestApplication();
    await post(sandboxKey, { categories: [] });
    await post(sandboxKey, { categories: [] });
    expect(await sessionCount(application.id)).toBe(2);
  });

  it("a failed validation does not consume the key", async () => {
    const { application, sandboxKey } = await createTestApplication();
    expect((await post(sandboxKey, { categories: "labs" }, "later")).status).toBe(400);
    expect((await post(sandboxKey, { categories: ["labs"] }, "later")).status).toBe(201);
    expect(await sessionCount(application.id)).toBe(1);
  });
});
