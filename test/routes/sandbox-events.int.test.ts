import { describe, expect, it } from "vitest";
import type { KeyAuth } from "@/lib/auth";
import { db } from "@/lib/db";
import { runLifecycle } from "@/lib/jobs";
import { LIFECYCLE_CYCLES } from "@/scripts/platform-jobs";
import { CATEGORIES } from "@/lib/records";
import { SCENARIOS } from "@/lib/sandbox";
import { listCategoryRecords, listRecordChanges } from "@/lib/users";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { createSession, getSession, sandboxEvent, serveSyntheticEhr, simulate, simulatedUser } from "@/test/sandbox";

serveSyntheticEhr();

const ALL = [...CATEGORIES];

async function continuousApp() {
  const created = await createTestApplication();
  await db().application.update({ where: { id: created.application.id }, data: { syncMode: "continuous" } });
  return created;
}

const eventsOf = async (applicationId: string, type: string) => db().event.findMany({ where: { applicationId, type }, orderBy: { createdAt: "asc" } });

describe("POST /sandbox/subjects/{subject}/events: errors", () => {
  it("body type (required) and source only; unknown type 400 invalid_event_type; live key 403 sandbox_only", async () => {
    const { sandboxKey, liveKey, application } = await createTestApplication();
    await db().application.update({ where: { id: application.id }, data: { productionEnabled: true, status: "active" } });
    const { subject } = await simulatedUser(sandboxKey, "baseline-adult", ALL);
    for (const body of [{}, { type: "records.advance", extra: 1 }, { type: 3 }, { type: "records.advance", source: 1 }]) {
      const answer = await sandboxEvent(sandboxKey, subject, body);
      expect([answer.status, answer.body.error?.code]).toEqual([400, "invalid_request"]);
    }
    const unknown = await sandboxEvent(sandboxKey, subject, { type: "records.delete" });
    expect([unknown.status, unknown.body.error?.code]).toEqual([400, "invalid_event_type"]);
    const live = await sandboxEvent(liveKey, subject, { type: "records.advance" });
    expect([live.status, live.body.error?.code]).toEqual([403, "sandbox_only"]);
  });

  it("404 not_found for a subject this application's simulation did not create", async () => {
    const { sandboxKey, application } = await createTestApplication();
    const other = await createTestApplication();
    const theirs = await simulatedUser(other.sandboxKey, "baseline-adult", ALL);
    const browserSubject = await createTestSubject(application.id);
    for (const subject of [theirs.subject, browserSubject.id, "u_doesnotexist000000000000"]) {
      const answer = await sandboxEvent(sandboxKey, subject, { type: "consent.revoke" });
      expect([answer.status, answer.body.error?.code]).toEqual([404, "not_found"]);
    }
  });

  it("409 control_unsupported for a type the scenario does not list; 400 invalid_source for a source the user lacks", async () => {
    const { sandboxKey } = await createTestApplication();
    const revoked = await simulatedUser(sandboxKey, "consent-revoked", ALL);
    for (const type of ["records.advance", "source.fail", "consent.expire"]) {
      const answer = await sandboxEvent(sandboxKey, revoked.subject, { type });
      expect([answer.status, answer.body.error?.code]).toEqual([409, "control_unsupported"]);
    }
    const unavailable = await simulatedUser(sandboxKey, "source-unavailable", ALL);
    expect((await sandboxEvent(sandboxKey, unavailable.subject, { type: "consent.revoke" })).body.error?.code).toBe("control_unsupported");

    const two = await simulatedUser(sandboxKey, "multi-source-overlap", ALL);
    for (const source of ["tertiary", "riverbend-health", "src_nope"]) {
      const answer = await sandboxEvent(sandboxKey, two.subject, { type: "records.advance", source });
      expect([answer.status, answer.body.error?.code]).toEqual([400, "invalid_source"]);
    }
    const one = await simulatedUser(sandboxKey, "baseline-adult", ALL);
    expect((await sandboxEvent(sandboxKey, one.subject, { type: "records.advance", source: "secondary" })).body.error?.code).toBe("invalid_source");
    // A source may be named by key, provider id or source id.
    for (const source of ["secondary", "prairie-ridge", two.session.sources[1]!.sourceId]) {
      const answer = await sandboxEvent(sandboxKey, two.subject, { type: "source.fail", source });
      expect(answer.status).toBe(200);
      expect(answer.body.sources).toEqual([expect.objectContaining({ sourceKey: "secondary", providerId: "prairie-ridge" })]);
    }
  });

  it("409 subject_not_connected for records.advance or source.fail before the source is connected", async () => {
    const { sandboxKey } = await createTestApplication();
    const session = await createSession(sandboxKey, ALL);
    const simulated = await simulate(sandboxKey, session.id, { scenario: "multi-source-overlap" });
    const subject = simulated.body.subject as string;
    for (const type of ["records.advance", "source.fail"]) {
      const answer = await sandboxEvent(sandboxKey, subject, { type, source: "secondary" });
      expect([answer.status, answer.body.error?.code]).toEqual([409, "subject_not_connected"]);
    }
    // The primary source is connected: it can be advanced already.
    expect((await sandboxEvent(sandboxKey, subject, { type: "records.advance", source: "primary" })).status).toBe(200);
  });
});

describe("POST /sandbox/subjects/{subject}/events: effects and events", () => {
  it("records.advance moves the source a phase and imports now; records.updated names subject, source, categories and counts (continuous only)", async () => {
    const { sandboxKey, application } = await continuousApp();
    const { subject } = await simulatedUser(sandboxKey, "baseline-adult", ALL);
    const answer = await sandboxEvent(sandboxKey, subject, { type: "records.advance" });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: "sandbox_event", type: "records.advance", subject, sources: [{ sourceKey: "primary", providerId: "riverbend-health", phase: 1, status: "synced" }] });
    const updated = await eventsOf(application.id, "records.updated");
    // The first import (the simulation's) and the advance each produced changes.
    expect(updated).toHaveLength(2);
    const data = updated[1]!.data as Record<string, unknown>;
    expect(data).toMatchObject({ subject, providerId: "riverbend-health", sourceId: expect.stringMatching(/^src_/) });
    expect(Object.keys(data).sort()).toEqual(["categories", "deletes", "importId", "providerId", "sourceId", "subject", "upserts"]);
    expect((data.upserts as number) + (data.deletes as number)).toBeGreaterThan(0);
    expect((data.categories as string[]).length).toBeGreaterThan(0);

    const oneTime = await createTestApplication();
    const user = await simulatedUser(oneTime.sandboxKey, "baseline-adult", ALL);
    await sandboxEvent(oneTime.sandboxKey, user.subject, { type: "records.advance" });
    expect(await eventsOf(oneTime.application.id, "records.updated")).toHaveLength(0);
  });

  it("source.fail: the next import fails once, now, with sync.failed (continuous); the following import succeeds", async () => {
    const { sandboxKey, application } = await continuousApp();
    const { subject, session } = await simulatedUser(sandboxKey, "baseline-adult", ALL);
    const failed = await sandboxEvent(sandboxKey, subject, { type: "source.fail" });
    expect(failed.body).toMatchObject({ sources: [{ sourceKey: "primary", status: "partial", error: expect.stringMatching(/^source_unavailable/) }] });
    // The session tells the application the failure is transient: nothing for the patient to do.
    expect((await getSession(sandboxKey, session.id)).sources).toEqual([expect.objectContaining({ status: "partial", errorCode: "source_unavailable" })]);
    const events = await eventsOf(application.id, "sync.failed");
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ subject, providerId: "riverbend-health", code: "source_unavailable" });
    const recovered = await sandboxEvent(sandboxKey, subject, { type: "records.advance" });
    expect(recovered.body).toMatchObject({ sources: [{ status: "synced", error: null }] });
    expect((await getSession(sandboxKey, session.id)).sources).toEqual([expect.objectContaining({ status: "synced", error: null, errorCode: null })]);
    expect(await eventsOf(application.id, "sync.failed")).toHaveLength(1);
  });

  it("consent.revoke revokes each active receipt as the patient with consent.revoked, and reads stop", async () => {
    const { sandboxKey, application } = await createTestApplication();
    const { subject, auth } = await simulatedUser(sandboxKey, "baseline-adult", ALL);
    expect(JSON.parse((await listCategoryRecords(auth, subject, "medications", { limit: 5 })).data.text)).not.toHaveLength(0);
    const answer = await sandboxEvent(sandboxKey, subject, { type: "consent.revoke" });
    expect(answer.body).toMatchObject({ receipts: [{ status: "revoked" }] });
    expect(await eventsOf(application.id, "consent.revoked")).toEqual([expect.objectContaining({ data: expect.objectContaining({ subject, reason: "patient" }) })]);
    await expect(listCategoryRecords(auth, subject, "medications", { limit: 5 })).rejects.toMatchObject({ code: "not_found" });
    // Nothing active is left: a second revoke changes nothing.
    expect((await sandboxEvent(sandboxKey, subject, { type: "consent.revoke" })).body).toMatchObject({ receipts: [] });
    expect(await eventsOf(application.id, "consent.revoked")).toHaveLength(1);
  });

  it("consent.expire sets expiry to now; the lifecycle cycle marks it expired and emits consent.expired once", async () => {
    const { sandboxKey, application } = await createTestApplication();
    const { subject, auth } = await simulatedUser(sandboxKey, "consent-partial", ALL);
    const answer = await sandboxEvent(sandboxKey, subject, { type: "consent.expire" });
    expect(answer.body).toMatchObject({ receipts: [{ status: "expired" }] });
    await expect(listCategoryRecords(auth, subject, "medications", { limit: 5 })).rejects.toMatchObject({ code: "not_found" });
    expect(await eventsOf(application.id, "consent.expired")).toHaveLength(0);
    await runLifecycle(LIFECYCLE_CYCLES);
    await runLifecycle(LIFECYCLE_CYCLES);
    const receipt = await db().consentReceipt.findFirstOrThrow({ where: { subjectId: subject } });
    expect(receipt).toMatchObject({ status: "expired" });
    const expired = await eventsOf(application.id, "consent.expired");
    expect(expired).toHaveLength(1);
    expect(expired[0]!.data).toEqual({ subject, receiptId: receipt.id, categories: ["medications", "allergies"] });
  });
});

async function snapshot(auth: KeyAuth, subject: string, category: string) {
  const records = new Map<string, unknown>();
  let cursor: string | undefined;
  let changeCursor: string | undefined;
  do {
    const page = await listCategoryRecords(auth, subject, category, { limit: 7, cursor });
    changeCursor ??= page.meta.changeCursor;
    for (const record of JSON.parse(page.data.text) as { recordId: string }[]) records.set(record.recordId, record);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { records, changeCursor: changeCursor as string };
}

async function replay(auth: KeyAuth, subject: string, category: string, from: { records: Map<string, unknown>; changeCursor: string }) {
  const local = new Map(from.records);
  let cursor = from.changeCursor;
  const seen = { upserts: 0, deletes: 0 };
  for (;;) {
    const page = await listRecordChanges(auth, subject, category, { limit: 5, cursor });
    for (const change of page.data) {
      if (change.changeType === "delete") {
        seen.deletes += 1;
        local.delete(change.recordId);
      } else if (change.record) {
        seen.upserts += 1;
        local.set(change.recordId, change.record);
      }
    }
    cursor = page.nextCursor;
    if (!page.hasMore) break;
  }
  return { local, seen };
}

describe("records.advance through every phase of every scenario", () => {
  const withPhases = SCENARIOS.filter((scenario) => scenario.sources.some((source) => source.phases > 1) && scenario.controls.includes("records.advance"));

  it.each(withPhases.map((scenario) => scenario.id))("%s: after each phase, replaying the change feed from the first changeCursor equals a fresh read", async (scenarioId) => {
    const scenario = SCENARIOS.find((candidate) => candidate.id === scenarioId)!;
    const { sandboxKey } = await createTestApplication();
    const { subject, auth, session } = await simulatedUser(sandboxKey, scenarioId, ALL);
    const granted = session.grantedCategories as string[];
    const first = new Map<string, Awaited<ReturnType<typeof snapshot>>>();
    for (const category of granted) first.set(category, await snapshot(auth, subject, category));
    const totals = { upserts: 0, deletes: 0 };

    for (const source of scenario.sources) {
      for (let phase = 1; phase < source.phases + 1; phase += 1) {
        const answer = await sandboxEvent(sandboxKey, subject, { type: "records.advance", source: source.key });
        expect(answer.status).toBe(200);
        // The last phase is sticky: advancing past it changes nothing.
        expect(answer.body.sources).toEqual([expect.objectContaining({ phase: Math.min(phase, source.phases - 1) })]);
        for (const category of granted) {
          const { local, seen } = await replay(auth, subject, category, first.get(category)!);
          const fresh = await snapshot(auth, subject, category);
          expect(Object.fromEntries(local)).toEqual(Object.fromEntries(fresh.records));
          if (phase === source.phases) {
            totals.upserts += seen.upserts;
            totals.deletes += seen.deletes;
          }
        }
      }
    }
    expect(totals.upserts).toBeGreaterThan(0);
    if (scenarioId !== "consent-partial") expect(totals.deletes).toBeGreaterThan(0);
  }, 60_000);
});
