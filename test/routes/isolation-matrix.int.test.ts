import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantReceipt } from "@/lib/consent";
import { db, Prisma } from "@/lib/db";
import { startQueue } from "@/lib/jobs";
import { runFhirExport } from "@/lib/fhir-api";
import { JOBS } from "@/scripts/platform-jobs";
import { stopSender } from "@/lib/queue";
import { request, startApiServer, type Answer } from "@/test/api-server";
import { declaredPlatformOperations, type DeclaredOperation } from "@/test/declared-operations";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { importScenario } from "@/test/records";
import { serveSyntheticEhr, simulatedUser } from "@/test/sandbox";

// The isolation matrix, generated from the operation declarations: every keyed /api/v1 operation that names a
// tenant's resource in its path (subject, Connect session, receipt, delegated credential, TEFCA session, conformance
// run) is called on another application's resource with (1) another application's key, (2) the owner's key of the
// other environment, (3) a delegated credential for another subject, and, where it names a subject or receipt,
// (4) after that receipt was revoked or expired, and (5) in the other direction, the owner's sandbox key on the owner's
// live resources (subject, receipt, Connect session, credential; TEFCA sessions and conformance runs exist only in
// the sandbox, which (2) covers). Each answers the spec's code, and the body (not only the status)
// carries nothing of the owner's. The owner's own call, made last, proves each resource exists. Keyed operations
// without a path resource are listed too (lists read only the caller's own), so a new operation cannot skip this:
// one with an unknown path parameter, or unclassified, fails the first test.

serveSyntheticEhr();

type Fixtures = Record<string, string>;

/** How each path parameter is filled: the owner's resource of that kind. TEFCA and Connect sessions share a name. */
const RESOURCE_OF: Record<string, (operation: DeclaredOperation, fixtures: Fixtures) => string> = {
  subject: (_, f) => f.subject!,
  receiptId: (_, f) => f.receiptId!,
  credentialId: (_, f) => f.credentialId!,
  runId: (_, f) => f.runId!,
  sessionId: (operation, f) => (operation.path.startsWith("/tefca/") ? f.tefcaSessionId! : f.connectSessionId!),
  // Not a resource: a category of the subject's records.
  category: () => "labs",
  // Not a resource: a FHIR resource type (issue 52); the FHIR id that follows it is one.
  resourceType: () => "Observation",
  id: (_, f) => f.fhirId!,
  // Not a resource: the one Group, each application's own consented population (a kick-off of the caller's own export).
  groupId: () => "consented",
  // A bulk export (issue 52): a DELETE cancels it, so it gets an export of its own.
  exportId: (operation, f) => (operation.method === "DELETE" ? f.exportToCancel! : f.exportId!),
  fileId: (_, f) => f.exportFileId!,
};

/** Keyed operations without a resource in the path, and why no other tenant's data can reach them. */
const WITHOUT_PATH_RESOURCE: Record<string, string> = {
  "GET /app": "describes the calling key's own application",
  "POST /agent-credentials": "issues only for a subject sharing with the key's application (not_found otherwise): checked below",
  "POST /connect/sessions": "creates a session of the caller's application",
  "GET /users": "lists the caller's own subjects: checked below",
  "GET /tefca/config": "fixed configuration of the synthetic network",
  "POST /tefca/sessions": "creates a session of the caller's application",
  "GET /conformance/runs": "lists the caller's own runs: checked below",
  "POST /conformance/runs": "creates a run of the caller's application",
  "POST /mcp": "each tool calls its REST twin through the same pipeline (covered by the twin's row)",
  "GET /fhir/metadata": "fixed description of the FHIR API",
  "GET /fhir/$export": "kicks off an export of the caller's own consented subjects in its own environment (lib/fhir-api/export/bulk-export.int.test.ts)",
  "GET /fhir/{resourceType}": "reads the subject its patient parameter names, authorized as every subject read (lib/fhir-api/fhir-api.int.test.ts: another application's subject, a revoked receipt, a credential's categories)",
};

/** Request bodies of the operations that take one, valid for the owner. */
const BODY: Record<string, unknown> = {
  "POST /connect/sessions/{sessionId}/simulate": { scenario: "baseline-adult" },
  "POST /sandbox/subjects/{subject}/events": { type: "records.advance" },
  "POST /tefca/sessions/{sessionId}/retrieve": { documentIds: ["doc_cvh0medications01"] },
};

const name = (operation: { method: string; path: string }) => `${operation.method} ${operation.path}`;
const operations = declaredPlatformOperations().filter((operation) => operation.auth === "key");
const withResource = operations.filter((operation) => operation.params.some((param) => param !== "category" && param !== "resourceType" && param !== "groupId"));
const notFoundCode = (operation: DeclaredOperation) => (operation.errors.includes("session_not_found") ? "session_not_found" : "not_found");

let origin = "";
let closeServer: () => Promise<void>;
let queue: PgBoss;
const f: Fixtures = {};
/** The owner's live resources of the kinds the live environment has: the same names as `f`. */
const live: Fixtures = {};
/** Path parameters whose resource exists in the sandbox only. */
const SANDBOX_ONLY_RESOURCES = ["runId"];
const sandboxOnlyResource = (operation: DeclaredOperation) => operation.path.startsWith("/tefca/") || operation.params.some((param) => SANDBOX_ONLY_RESOURCES.includes(param));
const keys = { owner: "", ownerLive: "", other: "", agentOfOtherSubject: "", agentOfRevoked: "" };
/** What only the owner's answers may contain. */
let markers: string[] = [];

async function call(operation: DeclaredOperation, token: string, fixtures: Fixtures = f): Promise<{ answer: Answer; path: string }> {
  const path = `/api/v1${operation.path.replace(/\{(\w+)\}/g, (_, param: string) => RESOURCE_OF[param]!(operation, fixtures))}`;
  const body = operation.body ? (BODY[name(operation)] ?? {}) : undefined;
  return { answer: await request(origin, operation.method, path, { token, body }), path };
}

/** The error code of an answer: the envelope's, or a FHIR OperationOutcome's (issue.details). */
function errorCode(body: Answer["body"]): string | undefined {
  if (body.resourceType === "OperationOutcome") return (body.issue as { details?: { coding?: { code?: string }[] } }[])[0]?.details?.coding?.[0]?.code;
  return body.error?.code;
}

/** An error envelope (an OperationOutcome for the FHIR API) with `code` and nothing of the owner's in it (ids the caller itself sent excepted). */
function expectRefused({ answer, path }: { answer: Answer; path: string }, status: number, code: string) {
  const what = `${path}: ${answer.status} ${JSON.stringify(answer.body)}`;
  expect([answer.status, errorCode(answer.body)], what).toEqual([status, code]);
  expect(Object.keys(answer.body), what).toEqual(answer.body.resourceType === "OperationOutcome" ? ["resourceType", "id", "issue"] : ["error"]);
  const text = JSON.stringify(answer.body);
  for (const marker of markers.filter((marker) => !path.includes(marker))) expect(text, `${what} leaks ${marker}`).not.toContain(marker);
}

async function ownerPost(path: string, body?: unknown) {
  const answer = await request(origin, "POST", `/api/v1${path}`, { token: keys.owner, body });
  if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as Record<string, unknown> & { id: string; token: string; run_key?: string };
}

const credentialBody = (subject: string) => ({ subject, categories: ["labs", "medications"], purpose: "Isolation matrix", durationSeconds: 900, operations: ["get_health_record", "get_category_records", "get_record_changes", "get_consent_receipt"] });

beforeAll(async () => {
  ({ origin, close: closeServer } = await startApiServer());
  queue = await startQueue(process.env.DATABASE_URL!, JOBS);
  const owner = await createTestApplication({ name: "Owner Tenant Clinic", productionEnabled: true, categoryAllowlist: ["labs", "medications", "allergies", "conditions"] });
  Object.assign(keys, { owner: owner.sandboxKey, ownerLive: owner.liveKey, other: (await createTestApplication()).sandboxKey });
  const [main, second, revoked, expired] = [
    await simulatedUser(keys.owner, "baseline-adult"),
    await simulatedUser(keys.owner, "baseline-adult"),
    await simulatedUser(keys.owner, "baseline-adult"),
    await simulatedUser(keys.owner, "baseline-adult"),
  ];
  const fhirIdOf = async (subject: string) => (await db().record.findFirstOrThrow({ where: { subjectId: subject, category: "labs", resource: { not: Prisma.DbNull } } })).id.replace("rec_", "rec-");
  const receiptOf = async (subject: string) => (await db().consentReceipt.findFirstOrThrow({ where: { subjectId: subject, status: "active" } })).id;
  Object.assign(f, { subject: main.subject, connectSessionId: main.session.id, receiptId: await receiptOf(main.subject), fhirId: await fhirIdOf(main.subject) });
  f.credentialId = (await ownerPost("/agent-credentials", credentialBody(main.subject))).id;
  keys.agentOfOtherSubject = (await ownerPost("/agent-credentials", credentialBody(second.subject))).token;
  keys.agentOfRevoked = (await ownerPost("/agent-credentials", credentialBody(revoked.subject))).token;
  f.tefcaSessionId = (await ownerPost("/tefca/sessions", { patientId: "tefca-synthetic-rosa", categories: ["medications", "labs"] })).id;
  await ownerPost(`/tefca/sessions/${f.tefcaSessionId}/discover`);
  f.runId = (await ownerPost("/conformance/runs", { scenario: "baseline-adult" })).id;

  Object.assign(f, { revokedSubject: revoked.subject, revokedReceipt: await receiptOf(revoked.subject), expiredSubject: expired.subject, expiredReceipt: await receiptOf(expired.subject) });
  await ownerPost(`/sandbox/subjects/${revoked.subject}/events`, { type: "consent.revoke" });
  await ownerPost(`/sandbox/subjects/${expired.subject}/events`, { type: "consent.expire" });

  // The live twins: a subject sharing with the owner in live (as a completed live Connect session leaves it, records
  // imported), a live Connect session and a credential issued with the live key.
  const liveSubject = await createTestSubject(owner.application.id, "live");
  const liveReceipt = await grantReceipt({ applicationId: owner.application.id, environment: "live", subjectId: liveSubject.id, categories: ["labs", "medications"] });
  await importScenario(liveSubject.id);
  const livePost = async (path: string, body: unknown) => {
    const answer = await request(origin, "POST", `/api/v1${path}`, { token: keys.ownerLive, body });
    if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { id: string };
  };
  Object.assign(live, {
    subject: liveSubject.id,
    receiptId: liveReceipt.id,
    fhirId: await fhirIdOf(liveSubject.id),
    connectSessionId: (await livePost("/connect/sessions", { categories: ["labs"] })).id,
    credentialId: (await livePost("/agent-credentials", credentialBody(liveSubject.id))).id,
  });

  // Completed bulk exports (the queue runs them), one after another: one export at a time per application and environment.
  const bulkExport = async (token: string) => {
    const kickOff = await fetch(`${origin}/api/v1/fhir/$export?_type=Patient,Observation`, { headers: { Authorization: `Bearer ${token}`, Prefer: "respond-async" } });
    // On this server: Content-Location is on the public URL, which serveSyntheticEhr() points at the health systems.
    const statusUrl = `${origin}${new URL(kickOff.headers.get("content-location")!).pathname}`;
    // As the worker would: this file's queue creates the queues but works none (the simulations run directly too).
    await runFhirExport(statusUrl.slice(statusUrl.lastIndexOf("/") + 1));
    for (let attempt = 0; attempt < 10; attempt++) {
      const status = await fetch(statusUrl, { headers: { Authorization: `Bearer ${token}` } });
      if (status.status === 200) {
        const manifest = (await status.json()) as { output: { url: string }[] };
        return { exportId: statusUrl.slice(statusUrl.lastIndexOf("/") + 1), exportFileId: manifest.output[0]!.url.slice(manifest.output[0]!.url.lastIndexOf("/") + 1) };
      }
      await status.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the bulk export ${statusUrl} did not finish`);
  };
  Object.assign(f, await bulkExport(keys.owner), { exportToCancel: (await bulkExport(keys.owner)).exportId });
  Object.assign(live, await bulkExport(keys.ownerLive), { exportToCancel: (await bulkExport(keys.ownerLive)).exportId });

  const records = await db().record.findMany({ where: { subjectId: { in: [main.subject, liveSubject.id] } }, select: { id: true }, take: 40 });
  expect(records.length).toBeGreaterThan(10);
  markers = [owner.application.id, "Owner Tenant Clinic", ...Object.values(f), ...Object.values(live), ...records.map((record) => record.id), ...records.map((record) => record.id.replace("rec_", "rec-"))];
}, 180_000);

afterAll(async () => {
  await stopSender();
  await queue?.stop({ graceful: false, wait: true });
  await closeServer?.();
});

describe("isolation matrix", () => {
  it("every keyed operation is in the matrix: its path parameters have a resource, or it is listed as having none", () => {
    const unknownParams = operations.flatMap((operation) => operation.params.filter((param) => !RESOURCE_OF[param]).map((param) => `${name(operation)} {${param}}`));
    expect(unknownParams).toEqual([]);
    const unclassified = operations.filter((operation) => operation.params.length === 0 && !WITHOUT_PATH_RESOURCE[name(operation)]).map(name);
    expect(unclassified).toEqual([]);
    const unbodied = withResource.filter((operation) => operation.body && BODY[name(operation)] === undefined && !operation.path.endsWith("/cancel") && !operation.path.endsWith("/advance") && !operation.path.endsWith("/discover") && !operation.path.endsWith("/revoke"));
    expect(unbodied.map(name)).toEqual([]);
    expect(withResource.length).toBeGreaterThanOrEqual(15);
  });

  for (const operation of withResource) {
    it(`${name(operation)}: another application, the other environment and another subject's credential get the spec's code and nothing of the owner's`, async () => {
      expectRefused(await call(operation, keys.other), 404, notFoundCode(operation));

      const sandboxOnly = operation.errors.includes("sandbox_only");
      expectRefused(await call(operation, keys.ownerLive), sandboxOnly ? 403 : 404, sandboxOnly ? "sandbox_only" : notFoundCode(operation));

      const asAgent = await call(operation, keys.agentOfOtherSubject);
      if (!operation.agentOperation) expectRefused(asAgent, 403, "operation_forbidden");
      else if (operation.params.includes("subject")) expectRefused(asAgent, 403, "subject_mismatch");
      else expectRefused(asAgent, 403, "credential_scope_exceeded");

      // The owner's own call: the resource exists and is the owner's (a state conflict is fine, not found is not).
      const own = await call(operation, keys.owner);
      expect(own.answer.status, `${own.path}: ${JSON.stringify(own.answer.body)}`).toBeLessThan(500);
      expect(["not_found", "session_not_found"]).not.toContain(own.answer.body.error?.code);
    });
  }

  for (const operation of withResource.filter((operation) => !sandboxOnlyResource(operation))) {
    it(`${name(operation)} on the owner's live resource with the owner's sandbox key: the spec's code and nothing of the live data`, async () => {
      expectRefused(await call(operation, keys.owner, live), 404, notFoundCode(operation));
      // The live key's own call: the live resource exists (a sandbox-only operation refuses the live key instead).
      const own = await call(operation, keys.ownerLive, live);
      expect(own.answer.status, `${own.path}: ${JSON.stringify(own.answer.body)}`).toBeLessThan(500);
      expect(["not_found", "session_not_found"]).not.toContain(own.answer.body.error?.code);
    });
  }

  const namingConsent = withResource.filter((operation) => operation.params.includes("subject") || operation.params.includes("receiptId"));
  for (const state of ["revoked", "expired"] as const) {
    for (const operation of namingConsent) {
      it(`${name(operation)} after the receipt is ${state}: the owner's key reads nothing more`, async () => {
        const fixtures = { ...f, subject: f[`${state}Subject`]!, receiptId: f[`${state}Receipt`]! };
        const answered = await call(operation, keys.owner, fixtures);
        if (operation.params.includes("receiptId")) {
          // The receipt itself stays readable by its application: that is how it learns the sharing ended.
          expect(answered.answer.status).toBe(200);
          expect(answered.answer.body).toMatchObject({ receiptId: fixtures.receiptId, status: state });
          return;
        }
        if (operation.method !== "GET") return void expect(answered.answer.status).toBeLessThan(500);
        markers = markers.concat(await recordIdsOf(fixtures.subject));
        expectRefused(answered, 404, "not_found");
      });
    }
  }

  it("a credential whose receipt was revoked is refused as a whole (401 invalid_agent_token), even on its own subject", async () => {
    for (const operation of namingConsent.filter((operation) => operation.agentOperation && operation.params.includes("subject"))) {
      expectRefused(await call(operation, keys.agentOfRevoked, { ...f, subject: f.revokedSubject! }), 401, "invalid_agent_token");
    }
  });

  it("lists hold only the caller's own: another application's GET /users and GET /conformance/runs show none of the owner's", async () => {
    for (const path of ["/users", "/conformance/runs"]) {
      const answer = await request(origin, "GET", `/api/v1${path}`, { token: keys.other });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual([]);
      const own = await request(origin, "GET", `/api/v1${path}`, { token: keys.owner });
      expect((own.body.data as unknown[]).length).toBeGreaterThan(0);
    }
    const issued = await request(origin, "POST", "/api/v1/agent-credentials", { token: keys.other, body: credentialBody(f.subject!) });
    // A subject the caller's application has no share with is one it knows nothing about.
    expectRefused({ answer: issued, path: `/api/v1/agent-credentials ${f.subject}` }, 404, "not_found");
  });
});

async function recordIdsOf(subject: string): Promise<string[]> {
  return (await db().record.findMany({ where: { subjectId: subject }, select: { id: true }, take: 10 })).map((record) => record.id);
}
