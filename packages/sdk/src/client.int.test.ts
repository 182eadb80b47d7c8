import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Chartkey, ChartkeyError, isChartkeyError, type HealthRecord } from "@chartkey/sdk";
import { pgPool } from "@/lib/db";
import { runSimulation } from "@/lib/simulation";
import { startApiServer } from "@/test/api-server";
import { createTestApplication } from "@/test/factories";
import { serveSyntheticEhr } from "@/test/sandbox";

// The SDK against the platform's own HTTP server (as `npm start` serves the API), over real HTTP and PostgreSQL.

serveSyntheticEhr();

let server: Awaited<ReturnType<typeof startApiServer>>;

beforeAll(async () => {
  server = await startApiServer();
});

afterAll(async () => {
  await server?.close();
});

/** A recorder around fetch: what the SDK sent, and when each answer came. */
function recordingFetch() {
  const sent: { method: string; url: string; headers: Headers; status: number; retryAfter: string | null; sentAt: number; answeredAt: number }[] = [];
  const send = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const sentAt = Date.now();
    const response = await fetch(request);
    sent.push({ method: request.method, url: request.url, headers: request.headers, status: response.status, retryAfter: response.headers.get("retry-after"), sentAt, answeredAt: Date.now() });
    return response;
  };
  return { sent, fetch: send as typeof fetch };
}

/** Spends the key's rate-limit window so it answers 429 until `ms` from now (as 300 requests in a minute would). */
async function spendWindow(apiKeyId: string, ms: number) {
  await pgPool().query(
    `INSERT INTO rate_limits (key, points, expire) VALUES ($1, 100000, $2) ON CONFLICT (key) DO UPDATE SET points = 100000, expire = $2`,
    [`key:${apiKeyId}`, Date.now() + ms],
  );
}

async function connectedSubject(chartkey: Chartkey, scenario = "baseline-adult") {
  const session = await chartkey.createConnectSession({ categories: ["medications", "labs", "conditions"] });
  await chartkey.simulateConnectSession(session.id, scenario);
  // The simulation job, as the worker runs it.
  await runSimulation(session.id);
  const connected = await chartkey.getConnectSession(session.id);
  expect(connected.simulation?.state).toBe("completed");
  return connected.subject!;
}

describe("syncCategory", () => {
  it("reads a category in full, then applies its change feed from the saved cursor: upserts and tombstones in order", async () => {
    const { sandboxKey } = await createTestApplication({ syncMode: "continuous" });
    const chartkey = new Chartkey({ apiKey: sandboxKey, baseUrl: `${server.origin}/api/v1` });
    const subject = await connectedSubject(chartkey);

    const labs = new Map<string, HealthRecord>();
    const saved: string[] = [];
    const handlers = {
      upsert: (id: string, record: HealthRecord) => void labs.set(id, record),
      remove: (id: string) => void labs.delete(id),
      saveCursor: (cursor: string) => void saved.push(cursor),
    };
    // Pages of 100: baseline-adult's labs fit one; the full read must equal the API's own listing.
    const first = await chartkey.syncCategory(subject, "labs", handlers);
    const listed = await chartkey.listRecords(subject, "labs");
    expect(first.fullRead).toBe(true);
    expect([...labs.keys()].sort()).toEqual(listed.data.map((record) => record.recordId).sort());
    expect(labs.size).toBeGreaterThan(0);
    expect(saved.at(-1)).toBe(first.cursor);

    // The source's next phases amend a lab result and delete an entered-in-error one (a tombstone).
    for (let phase = 0; phase < 2; phase++) await chartkey.sandboxEvent(subject, { type: "records.advance" });
    const next = await chartkey.syncCategory(subject, "labs", { ...handlers, cursor: first.cursor });
    expect(next.fullRead).toBe(false);
    expect(next.removed).toBeGreaterThan(0);
    expect(next.cursor).not.toBe(first.cursor);
    expect(saved.at(-1)).toBe(next.cursor);
    // The local copy is now exactly what a fresh read answers.
    const fresh = await chartkey.listRecords(subject, "labs");
    expect([...labs.keys()].sort()).toEqual(fresh.data.map((record) => record.recordId).sort());
    expect(Object.fromEntries(labs)).toEqual(Object.fromEntries(fresh.data.map((record) => [record.recordId, record])));

    // Nothing changed since: the feed from the new cursor applies nothing.
    const idle = await chartkey.syncCategory(subject, "labs", { ...handlers, cursor: next.cursor });
    expect({ upserted: idle.upserted, removed: idle.removed }).toEqual({ upserted: 0, removed: 0 });
  });
});

describe("retries and idempotency", () => {
  it("retries a 429 after its Retry-After, sending the same Idempotency-Key, and creates one session", async () => {
    const { sandboxKey, sandboxKeyId } = await createTestApplication();
    const recorder = recordingFetch();
    const chartkey = new Chartkey({ apiKey: sandboxKey, baseUrl: `${server.origin}/api/v1`, fetch: recorder.fetch });
    // Spent for 3 s more: long enough that the first request meets it on a loaded machine, short enough to wait out.
    await spendWindow(sandboxKeyId, 3000);

    const session = await chartkey.createConnectSession({ categories: ["labs"] });
    expect(session.id).toMatch(/^cs_/);
    const attempts = recorder.sent.filter((sent) => sent.method === "POST");
    expect(attempts.map((attempt) => attempt.status)).toEqual([429, 201]);
    const [limited, created] = attempts as [(typeof attempts)[0], (typeof attempts)[0]];
    const idempotencyKey = limited.headers.get("idempotency-key");
    expect(idempotencyKey).toBeTruthy();
    expect(created.headers.get("idempotency-key")).toBe(idempotencyKey);
    // The retry waited the Retry-After the 429 carried (whole seconds, rounded up from what was left of the window).
    const retryAfter = Number(limited.retryAfter);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(created.sentAt - limited.answeredAt).toBeGreaterThanOrEqual(retryAfter * 1000);

    // The same key again is the same session (the API replays the first result), not a second one.
    const again = await chartkey.createConnectSession({ categories: ["labs"] }, { idempotencyKey: idempotencyKey! });
    expect(again.id).toBe(session.id);
  });

  it("gives up after maxRetries and throws the 429 as a typed error with its Retry-After", async () => {
    const { sandboxKey, sandboxKeyId } = await createTestApplication();
    const recorder = recordingFetch();
    const chartkey = new Chartkey({ apiKey: sandboxKey, baseUrl: `${server.origin}/api/v1`, fetch: recorder.fetch, maxRetries: 0 });
    await spendWindow(sandboxKeyId, 30_000);
    const error = await chartkey.app().catch((caught: unknown) => caught);
    expect(isChartkeyError(error, "rate_limited")).toBe(true);
    expect((error as ChartkeyError).retryAfter).toBeGreaterThanOrEqual(29);
    expect(recorder.sent).toHaveLength(1);
  });
});

describe("typed errors", () => {
  it("throws the API's envelope as a ChartkeyError branchable on code", async () => {
    const { sandboxKey } = await createTestApplication({ syncMode: "continuous" });
    const chartkey = new Chartkey({ apiKey: sandboxKey, baseUrl: `${server.origin}/api/v1` });
    const subject = await connectedSubject(chartkey);
    const { meta } = await chartkey.listRecords(subject, "labs");

    const edited = await chartkey.listRecordChanges(subject, "labs", { cursor: `${meta.changeCursor}x` }).catch((caught: unknown) => caught);
    expect(edited).toBeInstanceOf(ChartkeyError);
    const error = edited as ChartkeyError;
    expect({ status: error.status, code: error.code, type: error.type }).toEqual({ status: 400, code: "invalid_cursor", type: "invalid_request_error" });
    expect(error.is("invalid_cursor")).toBe(true);
    expect(error.requestId).toMatch(/^req_/);

    const outside = await chartkey.listRecords(subject, "vitals").catch((caught: unknown) => caught);
    expect(isChartkeyError(outside)).toBe(true);
    expect((outside as ChartkeyError).status).toBe(403);

    const unknownKey = new Chartkey({ apiKey: "ck_test_unknown0000000000000000000000", baseUrl: `${server.origin}/api/v1` });
    await expect(unknownKey.app()).rejects.toMatchObject({ name: "ChartkeyError", status: 401, code: "invalid_api_key" });
  });
});
