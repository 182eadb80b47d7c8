import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { db, Prisma } from "@/lib/db";
import { newId } from "@/lib/ids";
import { runLifecycle } from "@/lib/jobs";
import { applySourceFacts } from "@/lib/records";
import { startTsxProcess } from "@/scripts/tsx-process";
import { LIFECYCLE_CYCLES } from "@/scripts/platform-jobs";
import { createTestAgentCredential, createTestApplication } from "@/test/factories";
import { importScenario, scenarioFacts } from "@/test/records";
import { PURGED_TABLES, purgeSubjectData, subjectsDueForPurge } from "./purge-subject";
import { grantReceipt, revokeReceipt } from "./receipts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Tables that keep rows naming a purged subject, and why each holds no clinical content. Every other table of the
 * schema must hold none: the test reads the schema, so a table added later is checked without being listed here.
 */
const KEPT: Record<string, string> = {
  Subject: "the pseudonymous id the receipts and the audit trail name",
  ConsentReceipt: "status, categories and times: the accountability of the consent itself",
  ConnectSession: "what the application asked for and the patient granted",
  SourceAuthorization: "a Connect session's SMART sign-in: OAuth state and the encrypted PKCE verifier, spent once the code was exchanged",
  ChangeCounter: "the last change sequence per category (an integer), so a later consent's feed does not restart under a saved cursor",
  ConformanceRun: "a sandbox run's timeline and checks, naming its synthetic subject",
  RequestLog: "method, route, status and latency of each read; no record contents; pruned after 30 days",
  Event: "webhook events: ids and counts, never record contents",
  AuditEntry: "the subject.purge entry itself",
};

async function provider() {
  return db().provider.create({
    data: { id: newId("prov_"), environment: "sandbox", name: "Test Health", fhirBaseUrl: "https://ehr.example.test/fhir", authorizeUrl: "https://ehr.example.test/authorize", tokenUrl: "https://ehr.example.test/token", clientId: "chartkey", clientSecretEncrypted: "x" },
  });
}

/**
 * A subject sharing with an application, with a row in every table a Connect flow, an import, a delegated credential
 * and a read leave: the identifiers of its data come back, to search the whole database for after the purge.
 */
async function sharingSubject(app: { id: string; keyId: string }, providerId: string, patientId?: string) {
  const patient = patientId ?? (await db().patient.create({ data: { id: newId("pat_"), environment: "sandbox" } })).id;
  const subject = await db().subject.create({ data: { id: newId("u_"), applicationId: app.id, environment: "sandbox", patientId: patient } });
  const session = await db().connectSession.create({
    data: { id: newId("cs_"), applicationId: app.id, environment: "sandbox", status: "completed", categories: ["labs"], grantedCategories: ["labs"], connectTokenHash: randomBytes(16).toString("hex"), subjectId: subject.id, expiresAt: new Date(Date.now() + DAY_MS), providerIds: [providerId] },
  });
  const receipt = await grantReceipt({ applicationId: app.id, environment: "sandbox", subjectId: subject.id, categories: ["labs", "conditions", "medications", "vitals"], connectSessionId: session.id });
  const source = await db().source.create({
    data: { id: newId("src_"), patientId: patient, subjectId: subject.id, providerId, connectSessionId: session.id, connected: true, syncStatus: "synced", accessTokenEncrypted: "enc-access", refreshTokenEncrypted: "enc-refresh", fhirPatientId: "p1" },
  });
  const sourceImport = await db().sourceImport.create({ data: { id: newId("imp_"), sourceId: source.id, subjectId: subject.id, status: "completed", upserts: 3 } });
  // Imported as an import writes it: the records with their FHIR resources, and the FHIR view's context resources.
  await importScenario(subject.id, "baseline-adult", { sourceId: source.id, sourceName: "Test Health" });
  const credential = await createTestAgentCredential({ receipt, parentKeyId: app.keyId });
  await db().requestLog.create({ data: { requestId: newId("req_"), applicationId: app.id, environment: "sandbox", method: "GET", route: "/users/{subject}/records", subjectId: subject.id, status: 200, latencyMs: 3 } });
  await db().event.create({ data: { id: newId("evt_"), applicationId: app.id, environment: "sandbox", type: "consent.revoked", data: { subject: subject.id, receiptId: receipt.id } } });
  const records = await db().record.findMany({ where: { subjectId: subject.id }, select: { id: true } });
  const context = await db().fhirContext.findMany({ where: { subjectId: subject.id }, select: { id: true } });
  return { subject, patient, receipt, ids: [subject.id, source.id, sourceImport.id, credential.id, ...records.map((record) => record.id), ...context.map((row) => row.id)] };
}

/** Every table of the public schema holding a text, JSON or array value that contains one of `ids`, with its row count. */
async function tablesHolding(ids: readonly string[]): Promise<Record<string, number>> {
  const columns = await db().$queryRaw<{ table: string; column: string }[]>`
    SELECT table_name::text AS "table", column_name::text AS "column" FROM information_schema.columns
    WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'ARRAY')`;
  const patterns = ids.map((id) => `%${id}%`);
  const found: Record<string, number> = {};
  for (const { table, column } of columns) {
    const [row] = await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${table}" WHERE "${column}"::text LIKE ANY($1::text[])`, patterns);
    if (row!.n > 0) found[table] = Math.max(found[table] ?? 0, row!.n);
  }
  return found;
}

/** A subject's rows in every table with a `subjectId` column, and its records' contents: what must not change. */
async function footprint(subjectId: string) {
  const tables = await db().$queryRaw<{ table: string }[]>`SELECT table_name::text AS "table" FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'subjectId' ORDER BY 1`;
  const counts: Record<string, number> = {};
  for (const { table } of tables) counts[table] = (await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${table}" WHERE "subjectId" = $1`, subjectId))[0]!.n;
  const records = await db().record.findMany({ where: { subjectId }, select: { id: true, contentHash: true }, orderBy: { id: "asc" } });
  const sources = await db().source.findMany({ where: { subjectId }, select: { id: true, refreshTokenEncrypted: true } });
  return { counts, records, sources };
}

async function setUp() {
  const first = await createTestApplication();
  const second = await createTestApplication();
  const health = await provider();
  const appA = { id: first.application.id, keyId: first.sandboxKeyId };
  const appB = { id: second.application.id, keyId: second.sandboxKeyId };
  const purged = await sharingSubject(appA, health.id);
  // The same patient shares with another application, and another patient with the same one: both untouched.
  const sameAppOther = await sharingSubject(appA, health.id);
  const otherApp = await sharingSubject(appB, health.id, purged.patient);
  return { appA, purged, sameAppOther, otherApp };
}

const previousRetention = process.env.CHARTKEY_RETENTION_DAYS;
afterEach(() => {
  if (previousRetention === undefined) delete process.env.CHARTKEY_RETENTION_DAYS;
  else process.env.CHARTKEY_RETENTION_DAYS = previousRetention;
});

describe("retention after consent ends", () => {
  it("classifies every table of the schema with a subject column or a relation to Subject (direct or through a related table): purged or kept with a reason", async () => {
    const columns = await db().$queryRaw<{ table: string }[]>`
      SELECT table_name::text AS "table" FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'subjectId'`;
    const references = await db().$queryRaw<{ from: string; to: string }[]>`
      SELECT c.conrelid::regclass::text AS "from", c.confrelid::regclass::text AS "to" FROM pg_constraint c WHERE c.contype = 'f'`;
    const unquoted = (name: string) => name.replaceAll('"', "");
    // Tables reached from Subject through foreign keys (a row that refers to the subject's rows), then those with a
    // plain `subjectId` column (the request log, conformance runs, imports).
    const related = new Set(["Subject"]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const edge of references) {
        if (related.has(unquoted(edge.to)) && !related.has(unquoted(edge.from))) {
          related.add(unquoted(edge.from));
          grew = true;
        }
      }
    }
    for (const row of columns) related.add(row.table);
    expect([...related]).toEqual(expect.arrayContaining([...PURGED_TABLES]));
    for (const table of related) expect(PURGED_TABLES.includes(table as never) || table in KEPT, `${table} is neither purged nor kept with a reason`).toBe(true);
  });

  it("purges a revoked subject's data after the retention period and leaves no row of it outside the kept tables; others untouched", async () => {
    const { purged, sameAppOther, otherApp } = await setUp();
    const before = { sameApp: await footprint(sameAppOther.subject.id), otherApp: await footprint(otherApp.subject.id) };
    expect(before.otherApp.records.length).toBeGreaterThan(10);
    expect(before.otherApp.counts.FhirContext).toBeGreaterThan(5);
    expect(await db().record.count({ where: { subjectId: purged.subject.id, resource: { not: Prisma.DbNull } } })).toBe(before.otherApp.records.length);

    const revokedAt = new Date(Date.now() - 10 * DAY_MS);
    await revokeReceipt(purged.receipt.id, "patient", revokedAt);
    process.env.CHARTKEY_RETENTION_DAYS = "30";
    expect(await runLifecycle(LIFECYCLE_CYCLES)).toContainEqual({ name: "purge-ended-subjects", affected: 0 });
    expect(await db().record.count({ where: { subjectId: purged.subject.id } })).toBeGreaterThan(0);

    process.env.CHARTKEY_RETENTION_DAYS = "7";
    expect(await runLifecycle(LIFECYCLE_CYCLES)).toContainEqual({ name: "purge-ended-subjects", affected: 1 });

    const left = await tablesHolding(purged.ids);
    expect(Object.keys(left)).toEqual(expect.arrayContaining(["Subject", "ConsentReceipt", "ConnectSession", "RequestLog", "Event", "AuditEntry"]));
    for (const table of Object.keys(left)) expect(KEPT[table], `${table} still holds ${left[table]} row(s) of the purged subject`).toBeDefined();
    for (const table of PURGED_TABLES) expect(await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${table}" WHERE "subjectId" = $1`, purged.subject.id)).toEqual([{ n: 0 }]);

    expect(await footprint(sameAppOther.subject.id)).toEqual(before.sameApp);
    expect(await footprint(otherApp.subject.id)).toEqual(before.otherApp);

    const receipt = await db().consentReceipt.findUniqueOrThrow({ where: { id: purged.receipt.id } });
    expect(receipt).toMatchObject({ status: "revoked", revokedAt, purgedAt: expect.any(Date) });
    const audit = await db().auditEntry.findMany({ where: { action: "subject.purge", targetId: purged.subject.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: "system", actorLabel: "retention", applicationId: purged.subject.applicationId, targetType: "subject" });
    const counts = audit[0]!.after as Record<string, number>;
    expect(counts).toMatchObject({ receiptId: purged.receipt.id, retentionDays: 7, AgentCredential: 1, SourceImport: 1, Source: 1, Record: before.otherApp.records.length });
    expect(counts.RecordChange).toBeGreaterThanOrEqual(counts.Record!);
    expect(counts.FhirContext).toBe(before.otherApp.counts.FhirContext);
    expect(JSON.stringify(audit[0])).not.toMatch(/enc-refresh|"code"|valueQuantity/);

    // An import that was still running writes nothing into the purged subject.
    const late = await applySourceFacts({ subjectId: purged.subject.id, sourceId: "src_late000000000000000000000", facts: scenarioFacts(purged.subject.id) });
    expect(late).toMatchObject({ upserts: 0, deletes: 0 });
    expect(await db().record.count({ where: { subjectId: purged.subject.id } })).toBe(0);

    // Idempotent: nothing is due any more, and a second purge of the same receipt does nothing.
    expect(await runLifecycle(LIFECYCLE_CYCLES)).toContainEqual({ name: "purge-ended-subjects", affected: 0 });
    expect(await purgeSubjectData(purged.receipt.id)).toEqual({ status: "already_purged" });
    expect(await db().auditEntry.count({ where: { action: "subject.purge", targetId: purged.subject.id } })).toBe(1);
  });

  it("counts from a receipt's end: expiry or revocation, the newest receipt of the subject, never while one is active; 0 days purges at once", async () => {
    const { appA, purged, sameAppOther } = await setUp();
    const now = new Date();
    // Expired 40 days ago, then the patient connected again: the active receipt keeps the data.
    await db().consentReceipt.update({ where: { id: purged.receipt.id }, data: { status: "expired", expiresAt: new Date(now.getTime() - 40 * DAY_MS), expiredAt: new Date(now.getTime() - 40 * DAY_MS) } });
    const again = await grantReceipt({ applicationId: appA.id, environment: "sandbox", subjectId: purged.subject.id, categories: ["labs"] });
    expect(await subjectsDueForPurge(now, 30)).toEqual([]);
    expect(await purgeSubjectData(purged.receipt.id, { now })).toEqual({ status: "active" });
    // The new receipt ends today: retention counts from it, not from the older one.
    await revokeReceipt(again.id, "patient", now);
    expect(await subjectsDueForPurge(now, 30)).toEqual([]);
    expect(await subjectsDueForPurge(now, 0)).toEqual([{ receiptId: again.id, subjectId: purged.subject.id }]);
    // An active receipt past its expiry has ended even before the expire cycle marks it.
    await db().consentReceipt.update({ where: { id: sameAppOther.receipt.id }, data: { expiresAt: new Date(now.getTime() - 1000) } });
    expect((await subjectsDueForPurge(now, 0)).map((due) => due.subjectId).sort()).toEqual([purged.subject.id, sameAppOther.subject.id].sort());

    process.env.CHARTKEY_RETENTION_DAYS = "0";
    expect(await runLifecycle(LIFECYCLE_CYCLES, now)).toContainEqual({ name: "purge-ended-subjects", affected: 2 });
    // Every ended receipt of the subject is marked, the superseded one included.
    expect(await db().consentReceipt.count({ where: { subjectId: purged.subject.id, purgedAt: null } })).toBe(0);
  });

  it("survives a kill -9 halfway: the purge resumes where it stopped and reports every row it deleted once", async () => {
    const { purged } = await setUp();
    const total = await footprint(purged.subject.id);
    await revokeReceipt(purged.receipt.id, "patient");
    const purger = await startTsxProcess("test/run-purge.ts", { PURGE_RECEIPT_ID: purged.receipt.id, PURGE_BATCH_ROWS: "5", LOG_LEVEL: "warn" }, /purge batch .*"Record":[1-9]/);
    await purger.kill9();
    const halfway = await db().consentReceipt.findUniqueOrThrow({ where: { id: purged.receipt.id } });
    expect(halfway.purgedAt).toBeNull();
    expect(halfway.purgeCounts).toMatchObject({ AgentCredential: 1, SourceImport: 1, Source: 1, Record: 5, RecordChange: 0 });
    expect(await db().record.count({ where: { subjectId: purged.subject.id } })).toBe(total.records.length - 5);
    expect(await db().auditEntry.count({ where: { action: "subject.purge", targetId: purged.subject.id } })).toBe(0);

    const outcome = await purgeSubjectData(purged.receipt.id, { batchRows: 7 });
    expect(outcome).toMatchObject({ status: "purged", counts: { AgentCredential: 1, SourceImport: 1, Source: 1, Record: total.records.length, RecordChange: total.counts.RecordChange } });
    expect(await footprint(purged.subject.id)).toMatchObject({ records: [], sources: [] });
    expect(await purgeSubjectData(purged.receipt.id)).toEqual({ status: "already_purged" });
  });
});
