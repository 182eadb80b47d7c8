import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runSimulation } from "@/lib/simulation";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { serveSyntheticEhr } from "@/test/sandbox";
// The files, not the domain's index: the index also exports next-auth, which needs Next's runtime.
import type { DashboardApplication } from "./sandbox-access";
import { triggerDashboardSandboxEvent } from "./sandbox-event";
import { sandboxScenarios } from "./sandbox-scenarios";
import { createSandboxSession, listSandboxSessions, readSandboxSession, simulateSandboxSession } from "./sandbox-sessions";
import { listSandboxSubjects, readSandboxSubject, sandboxSubjectRecordCounts } from "./sandbox-subjects";
import { readSubjectRecords, SUBJECT_RECORDS_PAGE } from "./subject-records";

serveSyntheticEhr();

const ORIGIN = "http://dashboard.test";

async function dashboardApplication(overrides: Parameters<typeof createTestApplication>[0] = {}): Promise<DashboardApplication> {
  const { application } = await createTestApplication(overrides);
  return db().application.findUniqueOrThrow({
    where: { id: application.id },
    select: { id: true, name: true, status: true, productionEnabled: true, categoryAllowlist: true, syncMode: true, webhookUrl: true, redirectUrls: true, createdAt: true },
  });
}

async function simulated(application: DashboardApplication, scenarioId = "baseline-adult") {
  const scenario = sandboxScenarios().find((choice) => choice.id === scenarioId)!;
  const session = await simulateSandboxSession(application, { scenario: scenario.id, consentCategories: scenario.categories }, ORIGIN);
  await runSimulation(session.id);
  return { session, subject: session.subject! };
}

describe("the dashboard's sandbox reads and actions", () => {
  it("lists only simulatable scenarios, with titles and their controls", () => {
    const scenarios = sandboxScenarios();
    expect(scenarios.map((scenario) => scenario.id)).toContain("baseline-adult");
    expect(scenarios.map((scenario) => scenario.id)).not.toContain("connect-cancelled");
    expect(scenarios.find((scenario) => scenario.id === "baseline-adult")).toMatchObject({ title: expect.any(String), sourceCount: 1, controls: expect.arrayContaining(["records.advance", "consent.revoke"]) });
  });

  it("simulates on a new session asking for the allowlisted categories, then lists the subject with its receipt and synced source; another application sees none of it", async () => {
    const application = await dashboardApplication({ categoryAllowlist: ["medications", "labs", "vitals"] });
    const other = await dashboardApplication();
    expect(await listSandboxSubjects(application.id)).toEqual([]);

    const { session, subject } = await simulated(application);
    expect(session).toMatchObject({ status: "completed", categories: ["medications", "labs", "vitals"], simulation: { scenario: "baseline-adult" } });
    expect(session.connectUrl.startsWith(`${ORIGIN}/connect/`)).toBe(true);

    const [listed, ...rest] = await listSandboxSubjects(application.id);
    expect(rest).toEqual([]);
    expect(listed).toMatchObject({
      subject,
      scenario: "baseline-adult",
      receipt: { status: "active", categories: ["medications", "labs", "vitals"] },
      sessionId: session.id,
      simulation: { state: "completed", failureCode: null },
      controls: expect.arrayContaining(["records.advance", "consent.revoke", "consent.expire", "source.fail"]),
    });
    expect(listed!.sources).toEqual([expect.objectContaining({ providerName: expect.any(String), status: "synced", phase: 0, sourceKey: "primary" })]);
    expect(listed!.sources[0]!.recordCount).toBeGreaterThan(0);
    expect(await readSandboxSubject(application.id, subject)).toMatchObject({ subject, createdBySimulation: true });

    // A patient connected through the hosted flow is listed too, without sandbox events; a live one is not.
    const hosted = await createTestSubject(application.id, "sandbox");
    const live = await createTestSubject(application.id, "live");
    const listedIds = (await listSandboxSubjects(application.id)).map((row) => row.subject);
    expect(listedIds).toEqual([hosted.id, subject]);
    expect(listedIds).not.toContain(live.id);
    expect(await readSandboxSubject(application.id, hosted.id)).toMatchObject({ createdBySimulation: false, controls: [], receipt: null });
    expect(await readSandboxSubject(application.id, live.id)).toBeNull();

    // Isolation: the other application lists nothing, reads nothing and cannot address the subject or session.
    await simulated(other);
    expect((await listSandboxSubjects(other.id)).map((row) => row.subject)).not.toContain(subject);
    expect((await listSandboxSubjects(other.id)).map((row) => row.subject)).not.toContain(hosted.id);
    expect(await readSandboxSubject(other.id, hosted.id)).toBeNull();
    expect(await readSandboxSubject(other.id, subject)).toBeNull();
    expect(Object.values(await sandboxSubjectRecordCounts(other.id, subject)).every((count) => count === 0)).toBe(true);
    expect(await readSubjectRecords(other, subject, "labs")).toMatchObject({ readable: false, code: "not_found" });
    await expect(readSandboxSession(other, session.id, ORIGIN)).rejects.toMatchObject({ code: "not_found" });
    await expect(triggerDashboardSandboxEvent(other, subject, "consent.revoke")).rejects.toMatchObject({ code: "not_found" });
    expect((await listSandboxSessions(other.id, ORIGIN)).map((row) => row.id)).not.toContain(session.id);
  });

  it("reads a category's records a page at a time, counts them, and refuses categories outside the consent", async () => {
    const application = await dashboardApplication({ categoryAllowlist: ["labs", "vitals", "medications"] });
    const { subject } = await simulated(application);
    const counts = await sandboxSubjectRecordCounts(application.id, subject);
    expect(counts.labs).toBeGreaterThan(0);
    expect(counts.claims).toBe(0);

    const first = await readSubjectRecords(application, subject, "labs");
    if (!first.readable) throw new Error(first.message);
    expect(counts.labs).toBeGreaterThan(SUBJECT_RECORDS_PAGE);
    expect(first.records.length).toBe(SUBJECT_RECORDS_PAGE);
    expect(first.nextCursor).not.toBeNull();
    expect(first.records[0]).toMatchObject({ category: "labs", code: { codings: expect.arrayContaining([expect.objectContaining({ system: "http://loinc.org" })]) } });
    let seen = first.records.length;
    let cursor = first.nextCursor;
    while (cursor) {
      const next = await readSubjectRecords(application, subject, "labs", cursor);
      if (!next.readable) throw new Error(next.message);
      seen += next.records.length;
      cursor = next.nextCursor;
    }
    expect(seen).toBe(counts.labs);
    // A cursor is bound to its application: another one's dashboard cannot page with it.
    const other = await dashboardApplication();
    expect(await readSubjectRecords(other, subject, "labs", first.nextCursor!)).toMatchObject({ readable: false });
    expect(await readSubjectRecords(application, subject, "allergies")).toMatchObject({ readable: false, code: "app_scope_exceeded" });
  });

  it("sandbox events: advance moves the source's phase; revoking consent shows in the list and stops record reads", async () => {
    const application = await dashboardApplication();
    const { subject } = await simulated(application);
    const advanced = await triggerDashboardSandboxEvent(application, subject, "records.advance");
    expect(advanced.sources).toEqual([expect.objectContaining({ phase: 1, status: "synced" })]);
    expect((await readSandboxSubject(application.id, subject))!.sources[0]!.phase).toBe(1);

    const revoked = await triggerDashboardSandboxEvent(application, subject, "consent.revoke");
    expect(revoked.receipts).toEqual([expect.objectContaining({ status: "revoked" })]);
    expect((await listSandboxSubjects(application.id))[0]!.receipt!.status).toBe("revoked");
    expect(await readSubjectRecords(application, subject, "labs")).toMatchObject({ readable: false, code: "not_found" });
    await expect(triggerDashboardSandboxEvent(application, subject, "no.such")).rejects.toMatchObject({ code: "invalid_event_type" });
  });

  it("creates pending sessions within the allowlist only, lists them newest first, and refuses a suspended application", async () => {
    const application = await dashboardApplication({ categoryAllowlist: ["medications", "allergies"] });
    const created = await createSandboxSession(application, { categories: ["allergies"], externalUserId: "user-7" }, ORIGIN);
    expect(created).toMatchObject({ status: "pending", environment: "sandbox", categories: ["allergies"], externalUserId: "user-7", simulation: null });
    await expect(createSandboxSession(application, { categories: ["labs"] }, ORIGIN)).rejects.toMatchObject({ code: "app_scope_exceeded" });
    const second = await createSandboxSession(application, { categories: ["medications"] }, ORIGIN);
    expect((await listSandboxSessions(application.id, ORIGIN)).map((session) => session.id)).toEqual([second.id, created.id]);
    expect(await readSandboxSession(application, created.id, ORIGIN)).toMatchObject({ id: created.id, connectUrl: created.connectUrl });

    await expect(createSandboxSession({ ...application, status: "suspended" }, { categories: ["medications"] }, ORIGIN)).rejects.toMatchObject({ code: "app_suspended" });
  });
});
