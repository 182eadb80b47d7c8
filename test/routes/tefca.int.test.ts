import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { authenticateKey } from "@/lib/auth";
import { db } from "@/lib/db";
import { validateFhirResource } from "@/test/fhir-validate";
import { recordSchemas, type Category } from "@/lib/records";
import { runLifecycle } from "@/lib/jobs";
import {
  createTefcaSession,
  discoverTefcaDocuments,
  exportTefcaRecords,
  pruneTefcaSessions,
  getTefcaSession,
  retrieveTefcaDocuments,
  revokeTefcaSession,
  TEFCA_NETWORK,
} from "@/lib/tefca";
import { createTestApplication } from "@/test/factories";
import { sharedFhirSchemaErrors } from "@/test/fhir-shared-schema";
import { FHIR_VALIDATION_TIMEOUT_MS } from "@/test/normalizer";
import { discoveredSession, startedSession, TEFCA_TEST_PATIENT, tefca, type SessionBody, type TefcaCall } from "@/test/tefca";

const MINUTE_MS = 60_000;
const code = (call: TefcaCall) => call.body.error?.code;

/**
 * Runs `during` while a second connection to the file's database holds a lock (taken by `lockSql` in an open
 * transaction), the way a concurrent request would; `during` may COMMIT it early, otherwise it is rolled back after.
 */
async function whileLocked(lockSql: string, values: unknown[], during: (other: pg.Client) => Promise<void>): Promise<void> {
  const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
  try {
    await other.query("BEGIN");
    await other.query(lockSql, values);
    await during(other);
  } finally {
    await other.query("ROLLBACK");
    await other.end();
  }
}

/** Waits until `count` backends of this database wait on a lock (requests blocked behind the test's lock). */
async function lockWaiters(client: pg.Client, count: number): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n >= count) return;
    await sleep(10);
  }
  throw new Error(`fewer than ${count} requests ever waited on the lock`);
}

describe("GET /tefca/config", () => {
  it("names the fixed fictional patient, the participants, the categories and the limits; a live key is 403 sandbox_only", async () => {
    const { sandboxKey, liveKey, application } = await createTestApplication();
    const config = await tefca.config(sandboxKey);
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      object: "tefca_config",
      patientId: TEFCA_TEST_PATIENT,
      limits: { activeSessionsPerApplication: 20, sessionMinutes: 15 },
      states: ["started", "discovered", "retrieved", "revoked", "expired"],
    });
    expect((config.body.organizations as { id: string }[]).map((organization) => organization.id)).toEqual(["cedar-valley-health", "harborview-clinics", "northstar-hie"]);
    expect(config.body.categories).toEqual(["demographics", "conditions", "medications", "allergies", "immunizations", "labs", "procedures"]);

    await db().application.update({ where: { id: application.id }, data: { productionEnabled: true } });
    const live = await tefca.config(liveKey);
    expect([live.status, code(live)]).toEqual([403, "sandbox_only"]);
  });
});

describe("the TEFCA workflow", () => {
  it(
    "start → discover → retrieve → export (FHIR R4 collection, valid) → revoke, with the ETag following the version",
    async () => {
      const { sandboxKey } = await createTestApplication();
      const before = Date.now();
      const created = await tefca.create(sandboxKey, { patientId: TEFCA_TEST_PATIENT, categories: ["medications", "allergies", "labs"] });
      expect(created.status).toBe(201);
      const session = created.body as SessionBody;
      expect(session).toMatchObject({ object: "tefca_session", state: "started", patientId: TEFCA_TEST_PATIENT, categories: ["medications", "allergies", "labs"], documents: [], selectedDocumentIds: [], version: 0 });
      expect(session.id).toMatch(/^tfs_[0-9A-Za-z]{24}$/);
      expect(created.headers.get("etag")).toBe('"0"');
      expect(created.headers.get("service-version")).toBe("2026-09-22");
      const lifetime = Date.parse(session.expiresAt as string) - Date.parse(session.createdAt as string);
      expect(lifetime).toBe(15 * MINUTE_MS);
      expect(Date.parse(session.createdAt as string)).toBeGreaterThanOrEqual(before - 1000);

      const read = await tefca.get(sandboxKey, session.id);
      expect([read.status, read.headers.get("etag")]).toEqual([200, '"0"']);
      expect(read.body).toEqual(session);

      // Discovery: documents in the session's categories only, at several organizations, some carrying the same resource.
      const discovered = await tefca.discover(sandboxKey, session.id, { headers: { "If-Match": '"0"' } });
      expect(discovered.status).toBe(200);
      expect(discovered.headers.get("etag")).toBe('"1"');
      const found = discovered.body as SessionBody;
      expect(found).toMatchObject({ state: "discovered", version: 1 });
      expect(new Set(found.documents.map((document) => document.category))).toEqual(new Set(["medications", "allergies", "labs"]));
      expect(new Set(found.documents.map((document) => document.organizationId))).toEqual(new Set(["cedar-valley-health", "harborview-clinics", "northstar-hie"]));
      for (const document of found.documents) expect(document.id).toMatch(/^doc_/);

      const selection = ["doc_cvh0medications01", "doc_nsx0medications01", "doc_cvh0allergies0001", "doc_nsx0allergies0001"];
      const retrieved = await tefca.retrieve(sandboxKey, session.id, { documentIds: selection }, { headers: { "If-Match": '"1"' } });
      expect(retrieved.status).toBe(200);
      expect(retrieved.headers.get("etag")).toBe('"2"');
      const retrieval = retrieved.body as { session: SessionBody; documents: { documentId: string; organizationId: string; resources: { resourceType: string; id: string }[] }[] };
      expect(retrieval.session).toMatchObject({ state: "retrieved", selectedDocumentIds: selection, version: 2 });
      expect(retrieval.documents.map((document) => [document.documentId, document.organizationId])).toEqual([
        ["doc_cvh0medications01", "cedar-valley-health"],
        ["doc_nsx0medications01", "northstar-hie"],
        ["doc_cvh0allergies0001", "cedar-valley-health"],
        ["doc_nsx0allergies0001", "northstar-hie"],
      ]);
      // The exchange's medication document carries the very resources of the health system's.
      expect(retrieval.documents[1]!.resources).toEqual(retrieval.documents[0]!.resources);
      const carried = retrieval.documents.flatMap((document) => document.resources.map((resource) => `${resource.resourceType}/${resource.id}`));
      const distinct = [...new Set(carried)];
      expect(carried.length).toBeGreaterThan(distinct.length);
      expect(retrieval.session.retrievedResourceCount).toBe(distinct.length);
      for (const document of retrieval.documents) {
        for (const resource of document.resources) expect(validateFhirResource(resource).errors).toEqual([]);
      }

      const exported = await tefca.export(sandboxKey, session.id);
      expect([exported.status, exported.headers.get("etag")]).toEqual([200, '"2"']);
      const bundle = exported.body as { resourceType: string; type: string; id: string; entry: { fullUrl: string; resource: { resourceType: string; id: string } }[] };
      expect(bundle).toMatchObject({ resourceType: "Bundle", type: "collection" });
      expect(bundle.entry.map((entry) => `${entry.resource.resourceType}/${entry.resource.id}`)).toEqual(distinct);
      for (const entry of bundle.entry) expect(entry.fullUrl).toMatch(new RegExp(`^https://fhir\\.[a-z-]+\\.example/r4/${entry.resource.resourceType}/${entry.resource.id}$`));
      expect(validateFhirResource(bundle).errors).toEqual([]);
      expect(sharedFhirSchemaErrors(bundle) ?? []).toEqual([]);
      for (const entry of bundle.entry) expect(sharedFhirSchemaErrors(entry.resource) ?? []).toEqual([]);
      expect(sharedFhirSchemaErrors({ ...bundle, type: "not-a-bundle-type" })).not.toEqual([]);
      expect(await tefca.export(sandboxKey, session.id, "fhir")).toMatchObject({ status: 200, body: { id: bundle.id, entry: bundle.entry } });

      const revoked = await tefca.revoke(sandboxKey, session.id, { headers: { "If-Match": '"2"' } });
      expect([revoked.status, revoked.headers.get("etag")]).toEqual([200, '"3"']);
      expect(revoked.body).toMatchObject({ state: "revoked", documents: [], selectedDocumentIds: [], retrievedResourceCount: 0, version: 3 });
      const stored = await db().tefcaSession.findUniqueOrThrow({ where: { id: session.id } });
      expect(stored).toMatchObject({ state: "revoked", discovered: [], selectedDocumentIds: [], results: [] });
      // Revoked: nothing to export, nothing to discover; revoking again changes nothing.
      expect(code(await tefca.export(sandboxKey, session.id))).toBe("invalid_state");
      expect(code(await tefca.discover(sandboxKey, session.id))).toBe("invalid_state");
      expect(code(await tefca.retrieve(sandboxKey, session.id, { documentIds: selection }))).toBe("invalid_state");
      const again = await tefca.revoke(sandboxKey, session.id, { body: {} });
      expect([again.status, (again.body as SessionBody).version]).toEqual([200, 3]);
    },
    FHIR_VALIDATION_TIMEOUT_MS,
  );

  it("?format=normalized answers the retrieved records in the platform's categories, a shared fact once with both organizations", async () => {
    const { sandboxKey } = await createTestApplication();
    const session = await discoveredSession(sandboxKey, ["allergies", "labs", "conditions"]);
    const selection = ["doc_nsx0allergies0001", "doc_cvh0allergies0001", "doc_cvh0labs000000001", "doc_nsx0labs000000001"];
    expect((await tefca.retrieve(sandboxKey, session.id, { documentIds: selection })).status).toBe(200);

    const exported = await tefca.export(sandboxKey, session.id, "normalized");
    expect(exported.status).toBe(200);
    const body = exported.body as { object: string; format: string; sessionId: string; patientId: string; categories: Record<string, { recordId: string; sources: { sourceId: string }[] }[]>; meta: { schemaVersion: number } };
    expect(body).toMatchObject({ object: "tefca_export", format: "normalized", sessionId: session.id, patientId: TEFCA_TEST_PATIENT, meta: { schemaVersion: 2 } });
    // Every category of the session is present; nothing was retrieved for conditions.
    expect(Object.keys(body.categories).sort()).toEqual(["allergies", "conditions", "labs"]);
    expect(body.categories.conditions).toEqual([]);
    // Penicillin (Cedar Valley) and shellfish (Harborview): the exchange's copies are the same resources, so two records.
    expect(body.categories.allergies).toHaveLength(2);
    expect(body.categories.allergies!.map((record) => record.sources.map((source) => source.sourceId).sort())).toEqual(
      expect.arrayContaining([["cedar-valley-health"], ["harborview-clinics"]]),
    );
    // A1c and creatinine from Cedar Valley, LDL from Harborview.
    expect(body.categories.labs).toHaveLength(3);
    for (const [category, records] of Object.entries(body.categories)) {
      for (const record of records) expect(recordSchemas[category as Category].safeParse(record).success).toBe(true);
    }
  });
});

describe("session states", () => {
  it("retrieve needs a discovery; export needs a retrieval (records_unavailable); a completed selection changes only in a new session", async () => {
    const { sandboxKey } = await createTestApplication();
    const session = await startedSession(sandboxKey);
    const early = await tefca.retrieve(sandboxKey, session.id, { documentIds: ["doc_cvh0medications01"] });
    expect([early.status, code(early)]).toEqual([409, "invalid_state"]);
    const nothing = await tefca.export(sandboxKey, session.id);
    expect([nothing.status, code(nothing)]).toEqual([409, "records_unavailable"]);

    const first = await tefca.discover(sandboxKey, session.id);
    expect(first.status).toBe(200);
    expect(code(await tefca.export(sandboxKey, session.id))).toBe("records_unavailable");
    // Discovering again from discovered finds the same documents and writes nothing.
    const second = await tefca.discover(sandboxKey, session.id, { body: { patientId: TEFCA_TEST_PATIENT } });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);

    expect((await tefca.retrieve(sandboxKey, session.id, { documentIds: ["doc_cvh0medications01"] })).status).toBe(200);
    const change = await tefca.retrieve(sandboxKey, session.id, { documentIds: ["doc_cvh0allergies0001"] });
    expect([change.status, code(change)]).toEqual([409, "invalid_state"]);
    expect(change.body.error?.message).toMatch(/new session/);
    expect(code(await tefca.discover(sandboxKey, session.id))).toBe("invalid_state");
    expect((await tefca.get(sandboxKey, session.id)).body).toMatchObject({ state: "retrieved", selectedDocumentIds: ["doc_cvh0medications01"], version: 2 });
  });

  it("revoke works from started and discovered, and clears the discovery", async () => {
    const { sandboxKey } = await createTestApplication();
    const started = await startedSession(sandboxKey);
    expect((await tefca.revoke(sandboxKey, started.id)).body).toMatchObject({ state: "revoked", version: 1 });
    const discovered = await discoveredSession(sandboxKey);
    expect(discovered.documents.length).toBeGreaterThan(0);
    expect((await tefca.revoke(sandboxKey, discovered.id)).body).toMatchObject({ state: "revoked", documents: [], version: 2 });
    expect(code(await tefca.export(sandboxKey, discovered.id))).toBe("invalid_state");
  });

  it("a session expires 15 minutes after creation (injected clock): read as expired, and every move is invalid_state", async () => {
    const { sandboxKey } = await createTestApplication();
    const key = await authenticateKey(`Bearer ${sandboxKey}`);
    const t0 = new Date(Date.now() - 60 * MINUTE_MS);
    const justBefore = new Date(t0.getTime() + 15 * MINUTE_MS - 1);
    const atExpiry = new Date(t0.getTime() + 15 * MINUTE_MS);
    const session = await createTefcaSession(key, { patientId: TEFCA_TEST_PATIENT, categories: ["medications"] }, t0);
    expect(session.expiresAt).toBe(atExpiry.toISOString());
    await discoverTefcaDocuments(key, session.id, {}, null, justBefore);
    expect((await getTefcaSession(key, session.id, justBefore)).state).toBe("discovered");
    expect((await getTefcaSession(key, session.id, atExpiry)).state).toBe("expired");
    await expect(retrieveTefcaDocuments(key, session.id, { documentIds: ["doc_cvh0medications01"] }, null, atExpiry)).rejects.toMatchObject({ code: "invalid_state" });
    await expect(discoverTefcaDocuments(key, session.id, {}, null, atExpiry)).rejects.toMatchObject({ code: "invalid_state" });
    await expect(revokeTefcaSession(key, session.id, null, atExpiry)).rejects.toMatchObject({ code: "invalid_state" });

    // A retrieved session's export ends with its expiry too.
    const other = await createTefcaSession(key, { patientId: TEFCA_TEST_PATIENT, categories: ["medications"] }, t0);
    await discoverTefcaDocuments(key, other.id, {}, null, t0);
    await retrieveTefcaDocuments(key, other.id, { documentIds: ["doc_cvh0medications01"] }, null, t0);
    expect((await exportTefcaRecords(key, other.id, "fhir", justBefore)).body).toMatchObject({ resourceType: "Bundle" });
    await expect(exportTefcaRecords(key, other.id, "fhir", atExpiry)).rejects.toMatchObject({ code: "invalid_state" });

    // Through the routes, on the real clock: both sessions were created an hour ago.
    expect((await tefca.get(sandboxKey, session.id)).body).toMatchObject({ state: "expired" });
    const late = await tefca.discover(sandboxKey, session.id);
    expect([late.status, code(late)]).toEqual([409, "invalid_state"]);
    expect(late.body.error?.message).toMatch(/expired/);
    expect(code(await tefca.revoke(sandboxKey, other.id))).toBe("invalid_state");
  });
});

describe("selection rules", () => {
  it("invalid_documents: empty, repeated, or not from this session's discovery; a missing list is invalid_request", async () => {
    const { sandboxKey } = await createTestApplication();
    const session = await discoveredSession(sandboxKey, ["medications", "allergies"]);
    const cases: [unknown, string][] = [
      [{ documentIds: [] }, "invalid_documents"],
      [{ documentIds: ["doc_cvh0medications01", "doc_cvh0medications01"] }, "invalid_documents"],
      // Exists in the network, but in a category this session did not ask for, so discovery did not find it.
      [{ documentIds: ["doc_hvc0procedures001"] }, "invalid_documents"],
      [{ documentIds: ["doc_cvh0medications01", "doc_doesnotexist0000"] }, "invalid_documents"],
      [{}, "invalid_request"],
      [{ documentIds: "doc_cvh0medications01" }, "invalid_request"],
      [{ documentIds: ["doc_cvh0medications01"], extra: true }, "invalid_request"],
    ];
    for (const [body, expected] of cases) {
      const answer = await tefca.retrieve(sandboxKey, session.id, body);
      expect([answer.status, code(answer)], JSON.stringify(body)).toEqual([400, expected]);
    }
    // Nothing was retrieved by the refused requests: the session is still discovered and at its version.
    expect((await tefca.get(sandboxKey, session.id)).body).toMatchObject({ state: "discovered", version: 1, selectedDocumentIds: [] });
  });

  it("synthetic_patient_required: any demographics in a body, or another patient; nothing is created or changed", async () => {
    const { sandboxKey, application } = await createTestApplication();
    const refusedCreates: unknown[] = [
      { patientId: "some-real-patient", categories: ["labs"] },
      { patientId: TEFCA_TEST_PATIENT, categories: ["labs"], name: "Rosa Delgado-Whitfield" },
      { patientId: TEFCA_TEST_PATIENT, categories: ["labs"], birthDate: "1968-03-21" },
      { patientId: TEFCA_TEST_PATIENT, categories: ["labs"], patient: { address: { city: "Cedar Rapids" } } },
      { categories: ["labs"], given: ["Rosa"], family: "Delgado-Whitfield", gender: "female" },
      { patientId: TEFCA_TEST_PATIENT, categories: ["labs"], identifiers: [{ system: "ssn", value: "000-00-0000" }] },
      { patientId: TEFCA_TEST_PATIENT, categories: ["labs"], Telecom: [{ system: "phone", value: "555-0100" }] },
    ];
    for (const body of refusedCreates) {
      const answer = await tefca.create(sandboxKey, body);
      expect([answer.status, code(answer)], JSON.stringify(body)).toEqual([400, "synthetic_patient_required"]);
    }
    expect(await db().tefcaSession.count({ where: { applicationId: application.id } })).toBe(0);

    const session = await discoveredSession(sandboxKey);
    for (const body of [{ patientId: "another-patient" }, { gender: "female" }, { patientId: TEFCA_TEST_PATIENT, dob: "1968-03-21" }]) {
      const answer = await tefca.discover(sandboxKey, session.id, { body });
      expect([answer.status, code(answer)], JSON.stringify(body)).toEqual([400, "synthetic_patient_required"]);
    }
    const retrieve = await tefca.retrieve(sandboxKey, session.id, { documentIds: ["doc_cvh0medications01"], mrn: "CVH-40021877" });
    expect(code(retrieve)).toBe("synthetic_patient_required");
    expect(code(await tefca.revoke(sandboxKey, session.id, { body: { email: "rosa@example.net" } }))).toBe("synthetic_patient_required");
    expect((await tefca.get(sandboxKey, session.id)).body).toMatchObject({ state: "discovered", version: 1 });
  });

  it("creation checks the categories: unknown or none is invalid_categories, outside the allowlist app_scope_exceeded, unknown fields invalid_request", async () => {
    const { sandboxKey } = await createTestApplication({ categoryAllowlist: ["medications", "labs"] });
    const cases: [unknown, number, string][] = [
      [{ patientId: TEFCA_TEST_PATIENT, categories: ["medications", "radiology"] }, 400, "invalid_categories"],
      [{ patientId: TEFCA_TEST_PATIENT, categories: [] }, 400, "invalid_categories"],
      [{ patientId: TEFCA_TEST_PATIENT, categories: ["medications", "allergies"] }, 403, "app_scope_exceeded"],
      [{ patientId: TEFCA_TEST_PATIENT, categories: ["labs"], purpose: "testing" }, 400, "invalid_request"],
      [{ categories: ["labs"] }, 400, "invalid_request"],
    ];
    for (const [body, status, expected] of cases) {
      const answer = await tefca.create(sandboxKey, body);
      expect([answer.status, code(answer)], JSON.stringify(body)).toEqual([status, expected]);
    }
    expect(code(await tefca.create(sandboxKey, null, { rawBody: "[1]" }))).toBe("invalid_json");
  });
});

describe("access", () => {
  it("session_not_found for an unknown id and for another application's session, on every operation", async () => {
    const mine = await createTestApplication();
    const theirs = await createTestApplication();
    const session = await discoveredSession(theirs.sandboxKey);
    for (const id of ["tfs_doesnotexist000000000000", session.id]) {
      const answers = [
        await tefca.get(mine.sandboxKey, id),
        await tefca.discover(mine.sandboxKey, id),
        await tefca.retrieve(mine.sandboxKey, id, { documentIds: ["doc_cvh0medications01"] }),
        await tefca.export(mine.sandboxKey, id),
        await tefca.revoke(mine.sandboxKey, id),
      ];
      expect(answers.map((answer) => [answer.status, code(answer)])).toEqual(Array(5).fill([404, "session_not_found"]));
    }
    expect((await tefca.get(theirs.sandboxKey, session.id)).body).toMatchObject({ state: "discovered", version: 1 });
  });

  it("a live key is 403 sandbox_only on every operation", async () => {
    const { sandboxKey, liveKey, application } = await createTestApplication();
    await db().application.update({ where: { id: application.id }, data: { productionEnabled: true } });
    const session = await startedSession(sandboxKey);
    const answers = [
      await tefca.create(liveKey, { patientId: TEFCA_TEST_PATIENT, categories: ["labs"] }),
      await tefca.get(liveKey, session.id),
      await tefca.discover(liveKey, session.id),
      await tefca.retrieve(liveKey, session.id, { documentIds: ["doc_cvh0labs000000001"] }),
      await tefca.export(liveKey, session.id),
      await tefca.revoke(liveKey, session.id),
    ];
    expect(answers.map((answer) => [answer.status, code(answer)])).toEqual(Array(6).fill([403, "sandbox_only"]));
  });

  it("app_scope_changed once the allowlist drops a session category; revoking still works", async () => {
    const { sandboxKey, application } = await createTestApplication({ categoryAllowlist: ["medications", "labs", "allergies"] });
    const retrievedSession = await discoveredSession(sandboxKey, ["medications", "labs"]);
    expect((await tefca.retrieve(sandboxKey, retrievedSession.id, { documentIds: ["doc_cvh0medications01"] })).status).toBe(200);
    const discovered = await discoveredSession(sandboxKey, ["medications", "labs"]);
    const unaffected = await startedSession(sandboxKey, ["medications"]);

    await db().application.update({ where: { id: application.id }, data: { categoryAllowlist: ["medications", "allergies"] } });
    const answers = [
      await tefca.discover(sandboxKey, discovered.id),
      await tefca.retrieve(sandboxKey, discovered.id, { documentIds: ["doc_cvh0medications01"] }),
      await tefca.export(sandboxKey, retrievedSession.id),
    ];
    expect(answers.map((answer) => [answer.status, code(answer)])).toEqual(Array(3).fill([403, "app_scope_changed"]));
    expect((await tefca.discover(sandboxKey, unaffected.id)).status).toBe(200);
    expect((await tefca.revoke(sandboxKey, discovered.id)).body).toMatchObject({ state: "revoked" });
  });

  it("app_inactive when the application is suspended while a request is under way", async () => {
    const { sandboxKey, application } = await createTestApplication();
    const session = await startedSession(sandboxKey);
    await whileLocked(`SELECT id FROM "Application" WHERE id = $1 FOR UPDATE`, [application.id], async (other) => {
      // The key is admitted (the application is still a sandbox one), then the change waits for the application row.
      const pending = tefca.discover(sandboxKey, session.id);
      await lockWaiters(other, 1);
      await other.query(`UPDATE "Application" SET status = 'suspended' WHERE id = $1`, [application.id]);
      await other.query("COMMIT");
      const answer = await pending;
      expect([answer.status, code(answer)]).toEqual([403, "app_inactive"]);
    });
    expect(await db().tefcaSession.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({ state: "started", version: 0 });
    // A creation with a key read before the suspension meets the same check.
    const staleKey = { ...(await authenticateKey(`Bearer ${(await createTestApplication()).sandboxKey}`)) };
    await db().application.update({ where: { id: staleKey.application.id }, data: { status: "suspended" } });
    await expect(createTefcaSession(staleKey, { patientId: TEFCA_TEST_PATIENT, categories: ["labs"] })).rejects.toMatchObject({ code: "app_inactive", status: 403 });
    // Once the key is read again, authentication itself refuses it.
    expect(code(await tefca.get(sandboxKey, session.id))).toBe("app_suspended");
  });
});

describe("optimistic versioning", () => {
  it("a stale If-Match is 409 session_changed and changes nothing; the current ETag, a list holding it, or * go ahead", async () => {
    const { sandboxKey } = await createTestApplication();
    const session = await startedSession(sandboxKey);
    const stale = await tefca.discover(sandboxKey, session.id, { headers: { "If-Match": '"7"' } });
    expect([stale.status, code(stale)]).toEqual([409, "session_changed"]);
    expect((await tefca.get(sandboxKey, session.id)).body).toMatchObject({ state: "started", version: 0 });
    expect((await tefca.discover(sandboxKey, session.id, { headers: { "If-Match": '"5", "0"' } })).status).toBe(200);
    const afterDiscovery = await tefca.retrieve(sandboxKey, session.id, { documentIds: ["doc_cvh0medications01"] }, { headers: { "If-Match": '"0"' } });
    expect(code(afterDiscovery)).toBe("session_changed");
    expect(code(await tefca.revoke(sandboxKey, session.id, { headers: { "If-Match": '"0"' } }))).toBe("session_changed");
    expect((await tefca.retrieve(sandboxKey, session.id, { documentIds: ["doc_cvh0medications01"] }, { headers: { "If-Match": "*" } })).status).toBe(200);
    expect((await tefca.get(sandboxKey, session.id)).headers.get("etag")).toBe('"2"');
  });

  it("two concurrent retrieves of one session: exactly one succeeds, the other is session_changed", async () => {
    const { sandboxKey } = await createTestApplication();
    const session = await discoveredSession(sandboxKey);
    // Hold the session row, as a third change in flight would: both retrieves read version 1, then queue on the row.
    await whileLocked(`SELECT id FROM "TefcaSession" WHERE id = $1 FOR UPDATE`, [session.id], async (other) => {
      const first = tefca.retrieve(sandboxKey, session.id, { documentIds: ["doc_cvh0medications01"] });
      const second = tefca.retrieve(sandboxKey, session.id, { documentIds: ["doc_cvh0allergies0001", "doc_cvh0labs000000001"] });
      await lockWaiters(other, 2);
      await other.query("COMMIT");
      const answers = await Promise.all([first, second]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const loser = answers.find((answer) => answer.status === 409)!;
      expect(code(loser)).toBe("session_changed");
      const winner = answers.find((answer) => answer.status === 200)!;
      const stored = (await tefca.get(sandboxKey, session.id)).body as SessionBody;
      expect(stored).toMatchObject({ state: "retrieved", version: 2, selectedDocumentIds: (winner.body.session as SessionBody).selectedDocumentIds });
    });
  });

  it("concurrent retrieves without any help from the test: one wins, the others are refused", async () => {
    const { sandboxKey } = await createTestApplication();
    const session = await discoveredSession(sandboxKey);
    const answers = await Promise.all(
      ["doc_cvh0medications01", "doc_cvh0allergies0001", "doc_cvh0labs000000001", "doc_nsx0labs000000001"].map((id) => tefca.retrieve(sandboxKey, session.id, { documentIds: [id] })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.status !== 200)) expect(["session_changed", "invalid_state"]).toContain(code(answer));
    expect((await tefca.get(sandboxKey, session.id)).body).toMatchObject({ state: "retrieved", version: 2 });
  });
});

describe("limits", () => {
  it("the 21st active session is 429 session_limit; revoked and expired sessions do not count", async () => {
    const { sandboxKey } = await createTestApplication();
    const key = await authenticateKey(`Bearer ${sandboxKey}`);
    // Expired (created 16 minutes ago) and revoked sessions are not active.
    await createTefcaSession(key, { patientId: TEFCA_TEST_PATIENT, categories: ["labs"] }, new Date(Date.now() - 16 * MINUTE_MS));
    const revoked = await startedSession(sandboxKey);
    await tefca.revoke(sandboxKey, revoked.id);

    const created: SessionBody[] = [];
    for (let index = 0; index < 20; index++) created.push(await startedSession(sandboxKey));
    const over = await tefca.create(sandboxKey, { patientId: TEFCA_TEST_PATIENT, categories: ["labs"] });
    expect([over.status, code(over)]).toEqual([429, "session_limit"]);
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    await tefca.revoke(sandboxKey, created[0]!.id);
    expect((await tefca.create(sandboxKey, { patientId: TEFCA_TEST_PATIENT, categories: ["labs"] })).status).toBe(201);
    expect(code(await tefca.create(sandboxKey, { patientId: TEFCA_TEST_PATIENT, categories: ["labs"] }))).toBe("session_limit");
  });

  it("concurrent creations never exceed 20 active sessions", async () => {
    const { sandboxKey, application } = await createTestApplication();
    for (let index = 0; index < 17; index++) await startedSession(sandboxKey);
    const answers = await Promise.all(Array.from({ length: 6 }, () => tefca.create(sandboxKey, { patientId: TEFCA_TEST_PATIENT, categories: ["labs"] })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(answers.filter((answer) => code(answer) === "session_limit")).toHaveLength(3);
    expect(await db().tefcaSession.count({ where: { applicationId: application.id } })).toBe(20);
  });
});

describe("storage", () => {
  it("503 tefca_sandbox_unavailable when the session storage is unavailable, on reads and changes", async () => {
    const { sandboxKey } = await createTestApplication();
    const session = await startedSession(sandboxKey);
    await db().$executeRawUnsafe(`ALTER TABLE "TefcaSession" RENAME TO "TefcaSessionAway"`);
    try {
      const answers = [
        await tefca.create(sandboxKey, { patientId: TEFCA_TEST_PATIENT, categories: ["labs"] }),
        await tefca.get(sandboxKey, session.id),
        await tefca.discover(sandboxKey, session.id),
        await tefca.export(sandboxKey, session.id),
        await tefca.revoke(sandboxKey, session.id),
      ];
      expect(answers.map((answer) => [answer.status, code(answer), (answer.body.error as { type?: string } | undefined)?.type])).toEqual(
        Array(5).fill([503, "tefca_sandbox_unavailable", "api_error"]),
      );
    } finally {
      await db().$executeRawUnsafe(`ALTER TABLE "TefcaSessionAway" RENAME TO "TefcaSession"`);
    }
    expect((await tefca.get(sandboxKey, session.id)).status).toBe(200);
  });

  it("503 tefca_sandbox_unavailable when the session table stays locked past the lock timeout", async () => {
    const { sandboxKey } = await createTestApplication();
    const session = await startedSession(sandboxKey);
    await whileLocked(`LOCK TABLE "TefcaSession" IN EXCLUSIVE MODE`, [], async () => {
      const answer = await tefca.discover(sandboxKey, session.id);
      expect([answer.status, code(answer)]).toEqual([503, "tefca_sandbox_unavailable"]);
    });
    expect((await tefca.discover(sandboxKey, session.id)).status).toBe(200);
  }, 30_000);
});

describe("upkeep", () => {
  it("the lifecycle deletes sessions a day after their expiry; until then they read as expired or revoked", async () => {
    const { sandboxKey } = await createTestApplication();
    const key = await authenticateKey(`Bearer ${sandboxKey}`);
    const now = Date.now();
    const old = await createTefcaSession(key, { patientId: TEFCA_TEST_PATIENT, categories: ["labs"] }, new Date(now - 15 * MINUTE_MS - 24 * 60 * MINUTE_MS - 1000));
    const recent = await createTefcaSession(key, { patientId: TEFCA_TEST_PATIENT, categories: ["labs"] }, new Date(now - 60 * MINUTE_MS));
    const revoked = await startedSession(sandboxKey);
    await tefca.revoke(sandboxKey, revoked.id);

    const [outcome] = await runLifecycle([pruneTefcaSessions], new Date(now));
    expect(outcome).toEqual({ name: "prune-tefca-sessions", affected: 1 });
    expect(code(await tefca.get(sandboxKey, old.id))).toBe("session_not_found");
    expect((await tefca.get(sandboxKey, recent.id)).body).toMatchObject({ state: "expired" });
    expect((await tefca.get(sandboxKey, revoked.id)).body).toMatchObject({ state: "revoked" });
  });
});

describe("the synthetic network", () => {
  it("is fixed data: every resource is valid FHIR R4, every document's resources exist, and some documents overlap", () => {
    for (const [reference, entry] of Object.entries(TEFCA_NETWORK.resources)) {
      expect(`${entry.resource.resourceType}/${entry.resource.id}`).toBe(reference);
      expect(validateFhirResource(entry.resource).errors, reference).toEqual([]);
    }
    const carriers = new Map<string, Set<string>>();
    for (const document of TEFCA_NETWORK.documents) {
      expect(document.id).toMatch(/^doc_/);
      for (const reference of document.resources) {
        expect(TEFCA_NETWORK.resources[reference], reference).toBeDefined();
        carriers.set(reference, (carriers.get(reference) ?? new Set()).add(document.organizationId));
      }
    }
    expect([...carriers.values()].filter((organizations) => organizations.size > 1).length).toBeGreaterThan(0);
  }, FHIR_VALIDATION_TIMEOUT_MS);
});
