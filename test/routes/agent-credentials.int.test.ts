import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_POLICY, hashApiKey, revokeApiKey } from "@/lib/auth";
import { expireReceiptNow, grantReceipt, revokeReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { consumeRateLimit, flushRequestLog } from "@/lib/http";
import { issueCredential, subjectWithCredential } from "@/test/agents";
import { request, startApiServer } from "@/test/api-server";
import { createTestSubject } from "@/test/factories";
import { sharingSubject } from "@/test/records";

// Delegated credentials over real HTTP, against the platform server as `npm start` runs it: issuing and revoking
// them, and every row of the spec's Authentication table for a request made with one.

let origin: string;
let close: () => Promise<void>;
const pools: pg.Pool[] = [];
beforeAll(async () => {
  ({ origin, close } = await startApiServer());
});
afterAll(async () => {
  await close();
  await Promise.all(pools.map((pool) => pool.end()));
});

/** A connection of its own, standing in for another process acting on the database meanwhile. */
async function otherConnection(): Promise<pg.PoolClient> {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  pools.push(pool);
  return pool.connect();
}

const get = (token: string, pathname: string) => request(origin, "GET", `/api/v1${pathname}`, { token });
const code = (answer: { body: { error?: { code: string } } }) => answer.body.error?.code;
const BODY = { categories: ["medications"], purpose: "Check allergies before prescribing", durationSeconds: 600 };

describe("POST /agent-credentials", () => {
  it("issues a credential for a sharing subject: 201, the token once (stored hashed), cred_ id, all four operations by default", async () => {
    const { sandboxKey, subject, receipt } = await sharingSubject();
    const before = Date.now();
    const answer = await request(origin, "POST", "/api/v1/agent-credentials", { token: sandboxKey, body: { subject: subject.id, ...BODY, categories: ["labs", "medications"] } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get("service-version")).toBe("2026-09-22");
    const credential = answer.body as Record<string, string>;
    expect(credential).toMatchObject({
      object: "agent_credential",
      subject: subject.id,
      receiptId: receipt.id,
      categories: ["medications", "labs"],
      operations: ["get_health_record", "get_category_records", "get_record_changes", "get_consent_receipt"],
      purpose: BODY.purpose,
      revokedAt: null,
    });
    expect(credential.id).toMatch(/^cred_[0-9A-Za-z]{24}$/);
    expect(credential.token).toMatch(/^ck_agent_[A-Za-z0-9_-]{43}$/);
    const expiresAt = Date.parse(credential.expiresAt!);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 600_000);
    const stored = await db().agentCredential.findUniqueOrThrow({ where: { id: credential.id } });
    expect(stored.tokenHash).toBe(hashApiKey(credential.token!));
    expect(JSON.stringify(stored)).not.toContain(credential.token);
  });

  it("narrows the operations when asked, and never outlives the subject's receipt", async () => {
    const { application, sandboxKey } = await sharingSubject({ facts: false });
    const subject = await createTestSubject(application.id);
    const receipt = await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs"], expiresAt: new Date(Date.now() + 120_000) });
    const issued = await issueCredential(origin, sandboxKey, { subject: subject.id, categories: ["labs"], purpose: "x", durationSeconds: 3600, operations: ["get_consent_receipt"] });
    expect(issued.operations).toEqual(["get_consent_receipt"]);
    expect(issued.expiresAt).toBe(receipt.expiresAt.toISOString());
  });

  it.each([
    ["no categories", { categories: undefined }],
    ["empty categories", { categories: [] }],
    ["categories not a list", { categories: "labs" }],
    ["a blank purpose", { purpose: "   " }],
    ["no purpose", { purpose: undefined }],
    ["a purpose over 500 characters", { purpose: "x".repeat(501) }],
    ["an unsupported operation", { operations: ["list_users"] }],
    ["empty operations", { operations: [] }],
    ["a category outside the receipt", { categories: ["claims"] }],
  ])("answers 400 invalid_grant for %s", async (_, change) => {
    const { sandboxKey, subject } = await sharingSubject({ granted: ["medications", "labs"], facts: false });
    const answer = await request(origin, "POST", "/api/v1/agent-credentials", { token: sandboxKey, body: { subject: subject.id, ...BODY, ...change } });
    expect([answer.status, code(answer)]).toEqual([400, "invalid_grant"]);
  });

  it("answers 400 invalid_grant for a category the receipt covers but the allowlist does not", async () => {
    const { sandboxKey, subject } = await sharingSubject({ allowlist: ["labs"], granted: ["labs"], facts: false });
    await db().consentReceipt.updateMany({ where: { subjectId: subject.id }, data: { categories: ["labs", "medications"] } });
    const answer = await request(origin, "POST", "/api/v1/agent-credentials", { token: sandboxKey, body: { subject: subject.id, ...BODY } });
    expect([answer.status, code(answer)]).toEqual([400, "invalid_grant"]);
  });

  it.each([0, 3601, 1.5, "600", null, undefined])("answers 400 invalid_duration for durationSeconds %s", async (durationSeconds) => {
    const { sandboxKey, subject } = await sharingSubject({ facts: false });
    const answer = await request(origin, "POST", "/api/v1/agent-credentials", { token: sandboxKey, body: { subject: subject.id, ...BODY, durationSeconds } });
    expect([answer.status, code(answer)]).toEqual([400, "invalid_duration"]);
  });

  it("answers 404 for a subject that does not share with the application, 400 for unknown fields and categories, 413 for a large body", async () => {
    const mine = await sharingSubject({ facts: false });
    const theirs = await sharingSubject({ facts: false });
    const post = (body: unknown) => request(origin, "POST", "/api/v1/agent-credentials", { token: mine.sandboxKey, body });
    expect(code(await post({ subject: theirs.subject.id, ...BODY }))).toBe("not_found");
    expect(code(await post({ subject: mine.subject.id, ...BODY, scope: "all" }))).toBe("invalid_request");
    expect(code(await post({ subject: mine.subject.id, ...BODY, categories: ["genome"] }))).toBe("invalid_categories");
    const large = await post({ subject: mine.subject.id, ...BODY, purpose: "x".repeat(70_000) });
    expect([large.status, code(large)]).toEqual([413, "payload_too_large"]);
  });

  it("honours Idempotency-Key: a replay answers the same credential without its token; another body conflicts", async () => {
    const { sandboxKey, subject } = await sharingSubject({ facts: false });
    const post = (body: unknown) => request(origin, "POST", "/api/v1/agent-credentials", { token: sandboxKey, body, headers: { "Idempotency-Key": "agent-1" } });
    const first = await post({ subject: subject.id, ...BODY });
    const replay = await post({ subject: subject.id, ...BODY });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const { token, ...withoutToken } = first.body;
    expect(token).toBeDefined();
    expect(replay.body).toEqual(withoutToken);
    expect(await db().agentCredential.count({ where: { subjectId: subject.id } })).toBe(1);
    expect(JSON.stringify(await db().idempotencyRecord.findMany({ where: { key: "agent-1" } }))).not.toContain(token as string);
    const conflict = await post({ subject: subject.id, ...BODY, purpose: "another" });
    expect([conflict.status, code(conflict)]).toEqual([409, "idempotency_conflict"]);
  });

  it("answers a delegated credential 403 operation_forbidden: a credential cannot create or revoke credentials", async () => {
    const { credential, subject } = await subjectWithCredential(origin);
    const create = await request(origin, "POST", "/api/v1/agent-credentials", { token: credential.token, body: { subject: subject.id, ...BODY } });
    expect([create.status, code(create)]).toEqual([403, "operation_forbidden"]);
    const revoke = await request(origin, "DELETE", `/api/v1/agent-credentials/${credential.id}`, { token: credential.token });
    expect([revoke.status, code(revoke)]).toEqual([403, "operation_forbidden"]);
  });
});

describe("DELETE /agent-credentials/{credentialId}", () => {
  it("revokes: the credential's next request is 401 invalid_agent_token; revoking again is harmless; another application's id is 404", async () => {
    const { credential, sandboxKey, subject } = await subjectWithCredential(origin);
    const other = await sharingSubject({ facts: false });
    expect((await get(credential.token, `/users/${subject.id}/records`)).status).toBe(200);
    const foreign = await request(origin, "DELETE", `/api/v1/agent-credentials/${credential.id}`, { token: other.sandboxKey });
    expect([foreign.status, code(foreign)]).toEqual([404, "not_found"]);
    const revoked = await request(origin, "DELETE", `/api/v1/agent-credentials/${credential.id}`, { token: sandboxKey });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: credential.id, revokedAt: expect.any(String) });
    expect(revoked.body.token).toBeUndefined();
    const again = await request(origin, "DELETE", `/api/v1/agent-credentials/${credential.id}`, { token: sandboxKey });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    const after = await get(credential.token, `/users/${subject.id}/records`);
    expect([after.status, code(after)]).toEqual([401, "invalid_agent_token"]);
  });
});

describe("a request made with a delegated credential", () => {
  it("reads exactly what the key reads of its subject, narrowed to its categories, with the four operations", async () => {
    const { credential, sandboxKey, subject, receipt } = await subjectWithCredential(origin);
    const asAgent = await get(credential.token, `/users/${subject.id}/records`);
    const asKey = await get(sandboxKey, `/users/${subject.id}/records?categories=medications,labs`);
    expect(asAgent.status).toBe(200);
    expect(Object.keys(asAgent.body.sections as object).sort()).toEqual(["labs", "medications"]);
    expect({ ...asAgent.body, meta: null }).toEqual({ ...asKey.body, meta: null });
    expect(asAgent.headers.get("ratelimit-policy")).toBe(`"agent";q=${AGENT_POLICY.points};w=60`);

    const page = await get(credential.token, `/users/${subject.id}/records/labs?limit=2`);
    expect(page.body).toEqual((await get(sandboxKey, `/users/${subject.id}/records/labs?limit=2`)).body);
    const changeCursor = (page.body.meta as { changeCursor: string }).changeCursor;
    const changes = await get(credential.token, `/users/${subject.id}/records/labs/changes?cursor=${changeCursor}`);
    expect(changes.status).toBe(200);
    expect(changes.body).toEqual((await get(sandboxKey, `/users/${subject.id}/records/labs/changes?cursor=${changeCursor}`)).body);
    const consent = await get(credential.token, `/consents/${receipt.id}`);
    expect(consent.status).toBe(200);
    expect(consent.body).toEqual((await get(sandboxKey, `/consents/${receipt.id}`)).body);
  });

  it("403 operation_forbidden for an operation it was not granted, and for everything only a key may do", async () => {
    const { credential, subject, receipt } = await subjectWithCredential(origin, { operations: ["get_health_record"] });
    expect(code(await get(credential.token, `/users/${subject.id}/records/labs`))).toBe("operation_forbidden");
    expect(code(await get(credential.token, `/consents/${receipt.id}`))).toBe("operation_forbidden");
    const keyOnly = [
      ["GET", "/users"],
      ["GET", "/app"],
      ["POST", "/connect/sessions", { categories: ["labs"] }],
      ["GET", "/connect/sessions/cs_x"],
      ["POST", "/connect/sessions/cs_x/simulate", { scenario: "baseline-adult" }],
      ["POST", `/sandbox/subjects/${subject.id}/events`, { type: "consent.revoke" }],
      ["GET", "/tefca/config"],
    ] as const;
    for (const [method, pathname, body] of keyOnly) {
      const answer = await request(origin, method, `/api/v1${pathname}`, { token: credential.token, body });
      expect([pathname, answer.status, code(answer)]).toEqual([pathname, 403, "operation_forbidden"]);
    }
  });

  it("403 subject_mismatch for another subject, even one the application shares", async () => {
    const { credential, application } = await subjectWithCredential(origin);
    const other = await createTestSubject(application.id);
    await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: other.id, categories: ["labs"] });
    for (const pathname of [`/users/${other.id}/records`, `/users/${other.id}/records/labs`, `/users/${other.id}/records/labs/changes?cursor=x`]) {
      const answer = await get(credential.token, pathname);
      expect([pathname, answer.status, code(answer)]).toEqual([pathname, 403, "subject_mismatch"]);
    }
  });

  it("403 credential_scope_exceeded for a category or a receipt it does not cover", async () => {
    const { credential, subject, application } = await subjectWithCredential(origin);
    for (const pathname of [`/users/${subject.id}/records/allergies`, `/users/${subject.id}/records/conditions/changes?cursor=x`, `/users/${subject.id}/records?categories=labs,allergies`]) {
      const answer = await get(credential.token, pathname);
      expect([pathname, answer.status, code(answer)]).toEqual([pathname, 403, "credential_scope_exceeded"]);
    }
    const other = await createTestSubject(application.id);
    const otherReceipt = await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: other.id, categories: ["labs"] });
    const receipt = await get(credential.token, `/consents/${otherReceipt.id}`);
    expect([receipt.status, code(receipt)]).toEqual([403, "credential_scope_exceeded"]);
  });

  it("401 invalid_agent_token for an unknown or malformed token", async () => {
    const { subject } = await subjectWithCredential(origin);
    for (const token of [`ck_agent_${"A".repeat(43)}`, "ck_agent_short"]) {
      const answer = await get(token, `/users/${subject.id}/records`);
      expect([answer.status, code(answer)]).toEqual([401, "invalid_agent_token"]);
    }
  });

  it("401 invalid_agent_token for an MCP-audience OAuth token: REST accepts none", async () => {
    const { subject } = await subjectWithCredential(origin);
    const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const token = `${segment({ alg: "RS256", typ: "at+jwt" })}.${segment({ aud: `${origin}/api/v1/mcp`, sub: "agent", exp: 4_102_444_800 })}.c2lnbmF0dXJl`;
    for (const pathname of [`/users/${subject.id}/records`, "/app"]) {
      const answer = await get(token, pathname);
      expect([pathname, answer.status, code(answer)]).toEqual([pathname, 401, "invalid_agent_token"]);
    }
  });

  it("401 invalid_agent_token once it expired", async () => {
    const { credential, subject } = await subjectWithCredential(origin);
    await db().agentCredential.update({ where: { id: credential.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    const answer = await get(credential.token, `/users/${subject.id}/records`);
    expect([answer.status, code(answer)]).toEqual([401, "invalid_agent_token"]);
  });

  it("401 invalid_agent_token on the next request after its parent key is revoked", async () => {
    const { credential, subject, application } = await subjectWithCredential(origin);
    expect((await get(credential.token, `/users/${subject.id}/records`)).status).toBe(200);
    const parent = await db().agentCredential.findUniqueOrThrow({ where: { id: credential.id } });
    await revokeApiKey(application.id, parent.parentKeyId);
    const answer = await get(credential.token, `/users/${subject.id}/records`);
    expect([answer.status, code(answer)]).toEqual([401, "invalid_agent_token"]);
  });

  it("401 invalid_agent_token on the next request after the receipt is revoked, expires, or is superseded", async () => {
    const revoked = await subjectWithCredential(origin);
    await revokeReceipt(revoked.receipt.id, "patient");
    expect(code(await get(revoked.credential.token, `/users/${revoked.subject.id}/records`))).toBe("invalid_agent_token");

    const expired = await subjectWithCredential(origin);
    await expireReceiptNow(expired.receipt.id);
    expect(code(await get(expired.credential.token, `/users/${expired.subject.id}/records`))).toBe("invalid_agent_token");

    const superseded = await subjectWithCredential(origin);
    await grantReceipt({ applicationId: superseded.application.id, environment: "sandbox", subjectId: superseded.subject.id, categories: ["labs"] });
    expect(code(await get(superseded.credential.token, `/users/${superseded.subject.id}/records`))).toBe("invalid_agent_token");
  });

  it("503 authority_unavailable when its authority cannot be read (a lock held on the credentials table)", async () => {
    const { credential, subject } = await subjectWithCredential(origin);
    const other = await otherConnection();
    try {
      await other.query("BEGIN");
      await other.query('LOCK TABLE "AgentCredential" IN ACCESS EXCLUSIVE MODE');
      const answer = await get(credential.token, `/users/${subject.id}/records`);
      expect([answer.status, code(answer), answer.body.error?.message]).toEqual([503, "authority_unavailable", expect.stringContaining("retry")]);
      expect(answer.body.error).toMatchObject({ type: "api_error" });
    } finally {
      await other.query("ROLLBACK");
      other.release();
    }
    expect((await get(credential.token, `/users/${subject.id}/records`)).status).toBe(200);
  });

  it.each([
    ["the receipt is revoked", "records"],
    ["the parent key is revoked", "labs"],
  ])("403 authority_changed when %s while the read runs (checked again before answering)", async (change, read) => {
    const { credential, subject, receipt, application } = await subjectWithCredential(origin);
    const lock = await otherConnection();
    const watcher = await otherConnection();
    try {
      // Hold the records table so the read stops after its authority was admitted, change the authority, let it go.
      await lock.query("BEGIN");
      await lock.query('LOCK TABLE "Record" IN ACCESS EXCLUSIVE MODE');
      const pending = get(credential.token, read === "records" ? `/users/${subject.id}/records` : `/users/${subject.id}/records/labs`);
      await waitForLockWait(watcher);
      if (change.startsWith("the receipt")) await revokeReceipt(receipt.id, "patient");
      else await revokeApiKey(application.id, (await db().agentCredential.findUniqueOrThrow({ where: { id: credential.id } })).parentKeyId);
      await lock.query("ROLLBACK");
      const answer = await pending;
      expect([answer.status, code(answer)]).toEqual([403, "authority_changed"]);
      expect(answer.body.sections).toBeUndefined();
    } finally {
      await lock.query("ROLLBACK").catch(() => {});
      lock.release();
      watcher.release();
    }
  });

  it("shares one rate limit among all of an application's credentials, with the RateLimit headers", async () => {
    const first = await subjectWithCredential(origin);
    const second = await issueCredential(origin, first.sandboxKey, { subject: first.subject.id, categories: ["labs"], purpose: "another agent", durationSeconds: 60 });
    const windowKey = `${first.application.id}:sandbox`;
    for (let used = 0; used < AGENT_POLICY.points - 1; used++) await consumeRateLimit(AGENT_POLICY, windowKey);
    const last = await get(first.credential.token, `/users/${first.subject.id}/records`);
    expect(last.status).toBe(200);
    expect(last.headers.get("ratelimit")).toMatch(/^"agent";r=0;t=\d+$/);
    const limited = await get(second.token, `/users/${first.subject.id}/records/labs`);
    expect([limited.status, code(limited)]).toEqual([429, "rate_limited"]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The parent key's own limit is its own: the key still reads.
    expect((await get(first.sandboxKey, `/users/${first.subject.id}/records`)).status).toBe(200);
  });

  it("is in the request log with the credential's id and the parent key", async () => {
    const { credential, subject } = await subjectWithCredential(origin);
    const answer = await get(credential.token, `/users/${subject.id}/records`);
    await flushRequestLog();
    const rows = await db().requestLog.findMany({ where: { agentCredentialId: credential.id } });
    const parent = await db().agentCredential.findUniqueOrThrow({ where: { id: credential.id } });
    expect(rows).toEqual([
      expect.objectContaining({ requestId: answer.headers.get("request-id"), apiKeyId: parent.parentKeyId, route: "GET /users/{subject}/records", subjectId: subject.id, status: 200 }),
    ]);
  });
});

/** Waits until some connection is waiting for a lock (the read the test holds up). */
async function waitForLockWait(client: pg.PoolClient): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await client.query<{ waiting: number }>(`SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted AND relation = '"Record"'::regclass`);
    if (rows[0]!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the read never waited for the records table");
}
