import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runSimulation } from "@/lib/simulation";
import { getApplicationAccess } from "@/lib/team";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { serveSyntheticEhr } from "@/test/sandbox";
// The files, not the domain's index: the index also exports next-auth, which needs Next's runtime.
import type { SandboxAccess } from "./sandbox-access";
import { triggerDashboardSandboxEvent } from "./sandbox-event";
import { sandboxScenarios } from "./sandbox-scenarios";
import { createSandboxSession, listSandboxSessions, readSandboxSession, simulateSandboxSession } from "./sandbox-sessions";
import { sandboxSubjectView, sandboxSubjectViews } from "./sandbox-subjects";
import { readSubjectRecords, SUBJECT_RECORDS_PAGE } from "./subject-records";

serveSyntheticEhr();

const ORIGIN = "http://dashboard.test";

/** The owner's access to a new application, as requireApplication returns it. */
async function ownerAccess(overrides: Parameters<typeof createTestApplication>[0] = {}): Promise<SandboxAccess> {
  const { application, developer } = await createTestApplication(overrides);
  const access = await getApplicationAccess(developer.id, application.id);
  if (!access) throw new Error("the creator is not a member");
  return access;
}

async function simulated(access: SandboxAccess, scenarioId = "baseline-adult") {
  const scenario = sandboxScenarios().find((choice) => choice.id === scenarioId)!;
  const session = await simulateSandboxSession(access, { scenario: scenario.id, consentCategories: scenario.categories }, ORIGIN);
  await runSimulation(session.id);
  return { session, subject: session.subject! };
}

describe("the dashboard's sandbox functions", () => {
  it("lists only simulatable scenarios, with titles and their controls", () => {
    const scenarios = sandboxScenarios();
    expect(scenarios.map((scenario) => scenario.id)).toContain("baseline-adult");
    expect(scenarios.map((scenario) => scenario.id)).not.toContain("connect-cancelled");
    expect(scenarios.find((scenario) => scenario.id === "baseline-adult")).toMatchObject({ title: expect.any(String), sourceCount: 1, controls: expect.arrayContaining(["records.advance", "consent.revoke"]) });
  });

  it("simulates on a new session asking for the allowlisted categories; the subject view carries its simulation and controls; another application sees none of it", async () => {
    const access = await ownerAccess({ categoryAllowlist: ["medications", "labs", "vitals"] });
    const other = await ownerAccess();
    const applicationId = access.application.id;
    expect(await sandboxSubjectViews(applicationId)).toEqual([]);

    const { session, subject } = await simulated(access);
    expect(session).toMatchObject({ status: "completed", categories: ["medications", "labs", "vitals"], simulation: { scenario: "baseline-adult" } });
    expect(session.connectUrl.startsWith(`${ORIGIN}/connect/`)).toBe(true);

    const [view, ...rest] = await sandboxSubjectViews(applicationId);
    expect(rest).toEqual([]);
    expect(view).toMatchObject({
      id: subject,
      scenario: "baseline-adult",
      scenarioTitle: expect.any(String),
      createdBySimulation: true,
      receipt: { status: "active", categories: ["medications", "labs", "vitals"] },
      sessionId: session.id,
      simulation: { state: "completed", failureCode: null },
      controls: expect.arrayContaining(["records.advance", "consent.revoke", "consent.expire", "source.fail"]),
    });
    expect(view!.sources).toEqual([expect.objectContaining({ syncStatus: "synced", phase: 0, sourceKey: "primary" })]);
    expect(view!.recordTotal).toBeGreaterThan(0);

    // A patient connected through the hosted flow is listed without sandbox events; a live subject is not listed.
    const hosted = await createTestSubject(applicationId, "sandbox");
    const live = await createTestSubject(applicationId, "live");
    expect((await sandboxSubjectViews(applicationId)).map((row) => row.id)).toEqual([hosted.id, subject]);
    expect(await sandboxSubjectView(applicationId, hosted.id)).toMatchObject({ createdBySimulation: false, controls: [], simulation: null, receipt: null });
    expect(await sandboxSubjectView(applicationId, live.id)).toBeNull();

    // Isolation: the other application lists nothing of it and cannot address the subject, its records or the session.
    await simulated(other);
    const otherIds = (await sandboxSubjectViews(other.application.id)).map((row) => row.id);
    expect(otherIds).not.toContain(subject);
    expect(otherIds).not.toContain(hosted.id);
    expect(await sandboxSubjectView(other.application.id, subject)).toBeNull();
    // Hostile ids from the dashboard's URL name no subject instead of failing the query (PostgreSQL refuses NUL).
    for (const hostile of ["u_\u0000", `${subject}\u0000`]) expect(await sandboxSubjectView(applicationId, hostile)).toBeNull();
    expect(await readSubjectRecords(other.application.id, subject, "labs")).toBeNull();
    await expect(readSandboxSession(other, session.id, ORIGIN)).rejects.toMatchObject({ code: "not_found" });
    // A session id from the URL that is not shaped like one (a NUL byte) is not found, not a database error.
    await expect(readSandboxSession(other, "cs_\0", ORIGIN)).rejects.toMatchObject({ code: "not_found" });
    await expect(triggerDashboardSandboxEvent(other, subject, "consent.revoke")).rejects.toMatchObject({ code: "not_found" });
    expect((await listSandboxSessions(other.application.id, ORIGIN)).map((row) => row.id)).not.toContain(session.id);
  });

  it("reads a category's records a page at a time; a cursor works only for its own category", async () => {
    const access = await ownerAccess();
    const { subject } = await simulated(access);
    const applicationId = access.application.id;
    const view = await sandboxSubjectView(applicationId, subject);
    const labs = view!.recordCounts.labs ?? 0;
    expect(labs).toBeGreaterThan(SUBJECT_RECORDS_PAGE);

    const first = await readSubjectRecords(applicationId, subject, "labs");
    expect(first!.records).toHaveLength(SUBJECT_RECORDS_PAGE);
    expect(first!.records[0]).toMatchObject({ category: "labs", code: { codings: expect.arrayContaining([expect.objectContaining({ system: "http://loinc.org" })]) } });
    let seen = first!.records.length;
    let cursor = first!.nextCursor;
    while (cursor) {
      const next = await readSubjectRecords(applicationId, subject, "labs", cursor);
      seen += next!.records.length;
      cursor = next!.nextCursor;
    }
    expect(seen).toBe(labs);
    expect(await readSubjectRecords(applicationId, subject, "medications", first!.nextCursor!)).toBeNull();
    expect(await readSubjectRecords(applicationId, subject, "genomics")).toBeNull();
  });

  it("sandbox events: advance moves the source's phase; revoking consent shows on the subject, whose records stay browsable here", async () => {
    const access = await ownerAccess();
    const { subject } = await simulated(access);
    const applicationId = access.application.id;
    const advanced = await triggerDashboardSandboxEvent(access, subject, "records.advance");
    expect(advanced.sources).toEqual([expect.objectContaining({ phase: 1, status: "synced" })]);
    expect((await sandboxSubjectView(applicationId, subject))!.sources[0]!.phase).toBe(1);

    const revoked = await triggerDashboardSandboxEvent(access, subject, "consent.revoke");
    expect(revoked.receipts).toEqual([expect.objectContaining({ status: "revoked" })]);
    expect((await sandboxSubjectView(applicationId, subject))!.receipt!.status).toBe("revoked");
    expect((await readSubjectRecords(applicationId, subject, "labs"))!.records.length).toBeGreaterThan(0);
    await expect(triggerDashboardSandboxEvent(access, subject, "no.such")).rejects.toMatchObject({ code: "invalid_event_type" });
  });

  it("creates pending sessions within the allowlist only, lists them newest first; members may, a suspended application may not", async () => {
    const access = await ownerAccess({ categoryAllowlist: ["medications", "allergies"] });
    const applicationId = access.application.id;
    const created = await createSandboxSession(access, { categories: ["allergies"], externalUserId: "user-7" }, ORIGIN);
    expect(created).toMatchObject({ status: "pending", environment: "sandbox", categories: ["allergies"], externalUserId: "user-7", simulation: null });
    await expect(createSandboxSession(access, { categories: ["labs"] }, ORIGIN)).rejects.toMatchObject({ code: "app_scope_exceeded" });
    const second = await createSandboxSession({ ...access, role: "member" }, { categories: ["medications"] }, ORIGIN);
    expect((await listSandboxSessions(applicationId, ORIGIN)).map((session) => session.id)).toEqual([second.id, created.id]);
    expect(await readSandboxSession(access, created.id, ORIGIN)).toMatchObject({ id: created.id, connectUrl: created.connectUrl });

    await db().application.update({ where: { id: applicationId }, data: { status: "suspended" } });
    const suspended = { ...access, application: { ...access.application, status: "suspended" as const } };
    await expect(createSandboxSession(suspended, { categories: ["medications"] }, ORIGIN)).rejects.toMatchObject({ code: "app_suspended" });
  });
});
