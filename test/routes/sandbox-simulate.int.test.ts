import { afterEach, describe, expect, it } from "vitest";
import { authenticateKey } from "@/lib/auth";
import { beginSignIn, chooseProviders, finishSignIn, linkToken } from "@/lib/connect";
import { db } from "@/lib/db";
import { currentEhrPatientPhase, findEhrPatient, issueAuthorizationCodeDirectly } from "@/lib/ehr";
import { newId } from "@/lib/ids";
import { runLifecycle } from "@/lib/jobs";
import { purgeSyntheticPatients, runSimulation } from "@/lib/simulation";
import { listCategoryRecords } from "@/lib/users";
import { createTestApplication } from "@/test/factories";
import { createSession, getSession, sandboxEvent, serveSyntheticEhr, simulate, simulatedUser } from "@/test/sandbox";

serveSyntheticEhr();

afterEach(() => {
  delete process.env.CHARTKEY_SANDBOX_PATIENT_LIMIT;
});

const DAY_MS = 24 * 60 * 60 * 1000;

describe("POST /connect/sessions/{sessionId}/simulate", () => {
  it("completes a pending session with a synthetic patient through the SMART client, then imports in the job: queued → connecting → importing → completed", async () => {
    const { sandboxKey, application } = await createTestApplication();
    const session = await createSession(sandboxKey, ["medications", "labs"]);
    const before = Date.now();
    const simulated = await simulate(sandboxKey, session.id, { scenario: "baseline-adult" });
    expect(simulated.status).toBe(200);
    expect(simulated.body).toMatchObject({ id: session.id, status: "completed", grantedCategories: ["medications", "labs"], simulation: { scenario: "baseline-adult", state: "importing", failureCode: null } });
    const subject = simulated.body.subject as string;
    expect(subject).toMatch(/^u_/);
    // A synthetic patient of this application, purged after 7 days, with its source connected by the SMART client.
    const stored = await db().subject.findUniqueOrThrow({ where: { id: subject }, include: { patient: true, sources: true } });
    expect(stored.patient).toMatchObject({ syntheticForApplicationId: application.id, scenario: "baseline-adult", environment: "sandbox" });
    expect(stored.patient.purgeAt!.getTime() - before).toBeGreaterThanOrEqual(7 * DAY_MS - 1000);
    expect(stored.patient.purgeAt!.getTime() - before).toBeLessThanOrEqual(7 * DAY_MS + 60_000);
    expect(stored.sources).toEqual([expect.objectContaining({ providerId: "riverbend-health", sourceKey: "primary", connected: true, fhirPatientId: "baseline-adult-patient" })]);
    expect(stored.sources[0]!.accessTokenEncrypted).toBeTruthy();
    expect(await db().event.count({ where: { applicationId: application.id, type: "consent.granted" } })).toBe(1);

    await runSimulation(session.id);
    const finished = await getSession(sandboxKey, session.id);
    expect(finished.simulation).toEqual({ scenario: "baseline-adult", state: "completed", failureCode: null });
    expect(finished.sources).toEqual([expect.objectContaining({ providerId: "riverbend-health", status: "synced" })]);
    // A re-import that starts (a retried job, the next sync) leaves the counts of the import that completed.
    const recordCount = finished.sources[0]!.recordCount;
    expect(recordCount).toBeGreaterThan(0);
    await db().sourceImport.create({ data: { id: newId("imp_"), sourceId: stored.sources[0]!.id, subjectId: subject } });
    expect((await getSession(sandboxKey, session.id)).sources[0]).toMatchObject({ recordCount });
    const key = await authenticateKey(`Bearer ${sandboxKey}`);
    const page = await listCategoryRecords(key, subject, "medications", { limit: 100 });
    expect(JSON.parse(page.data.text)).not.toHaveLength(0);
    // Only the categories the session asked for are granted.
    await expect(listCategoryRecords(key, subject, "allergies", { limit: 10 })).rejects.toMatchObject({ status: 403 });
  });

  it("repeating with the same scenario resumes and returns the session; another scenario is 409", async () => {
    const { sandboxKey } = await createTestApplication();
    const session = await createSession(sandboxKey);
    const first = await simulate(sandboxKey, session.id, { scenario: "baseline-adult" });
    const again = await simulate(sandboxKey, session.id, { scenario: "baseline-adult" });
    expect(again.status).toBe(200);
    expect(again.body.subject).toBe(first.body.subject);
    expect(await db().patient.count({ where: { scenario: "baseline-adult", subjects: { some: { id: first.body.subject as string } } } })).toBe(1);
    await runSimulation(session.id);
    expect((await simulate(sandboxKey, session.id, { scenario: "baseline-adult" })).body).toMatchObject({ simulation: { state: "completed" } });
    const other = await simulate(sandboxKey, session.id, { scenario: "pediatric-child" });
    expect(other.status).toBe(409);
    expect(other.body.error?.code).toBe("session_not_simulatable");
  });

  it.each(["multi-source-overlap", "source-unavailable", "consent-revoked"])("%s: the session reads completed before the job attaches the second source or revokes", async (scenario) => {
    const { sandboxKey, application } = await createTestApplication();
    const session = await createSession(sandboxKey);
    const simulated = await simulate(sandboxKey, session.id, { scenario });
    expect(simulated.body).toMatchObject({ status: "completed", simulation: { state: "importing" } });
    expect(simulated.body.sources).toHaveLength(1);
    const receipt = await db().consentReceipt.findFirstOrThrow({ where: { subjectId: simulated.body.subject as string } });
    expect(receipt.status).toBe("active");

    await runSimulation(session.id);
    const finished = await getSession(sandboxKey, session.id);
    expect(finished.simulation).toEqual({ scenario, state: "completed", failureCode: null });
    if (scenario === "multi-source-overlap") {
      expect(finished.sources.map((source) => [source.providerId, source.status])).toEqual([["lakeshore-health", "synced"], ["prairie-ridge", "synced"]]);
    }
    if (scenario === "source-unavailable") {
      expect(finished.sources.map((source) => [source.providerId, source.status])).toEqual([["cedar-valley", "synced"], ["granite-pass", "failed"]]);
      expect(finished.sources[1]!.error).toMatch(/^source_unavailable/);
    }
    if (scenario === "consent-revoked") {
      expect((await db().consentReceipt.findUniqueOrThrow({ where: { id: receipt.id } })).status).toBe("revoked");
      expect(await db().event.findFirst({ where: { applicationId: application.id, type: "consent.revoked" } })).toMatchObject({ data: { receiptId: receipt.id } });
    }
    // Running the job again (a retry, or a resumed simulation) repeats nothing.
    await runSimulation(session.id);
    expect((await getSession(sandboxKey, session.id)).sources).toHaveLength(scenario === "consent-revoked" ? 1 : 2);
  });

  it.each([
    ["cannot be reached", "source_unavailable", () => "http://127.0.0.1:9/ehr/riverbend-health/fhir"],
    // The synthetic health systems' server is up, but serves no provider at this path: discovery answers 404.
    ["has no SMART configuration", "provider_unavailable", (base: string) => base.replace("/riverbend-health/", "/no-such-health-system/")],
  ])("a simulation whose health system %s ends failed with the SMART client's code, %s, not an error", async (_, code, fhirBaseUrlOf) => {
    const { sandboxKey } = await createTestApplication();
    const session = await createSession(sandboxKey);
    const { fhirBaseUrl } = await db().provider.findUniqueOrThrow({ where: { id: "riverbend-health" } });
    await db().provider.update({ where: { id: "riverbend-health" }, data: { fhirBaseUrl: fhirBaseUrlOf(fhirBaseUrl) } });
    try {
      const simulated = await simulate(sandboxKey, session.id, { scenario: "baseline-adult" });
      expect(simulated.status).toBe(200);
      expect(simulated.body).toMatchObject({ status: "pending", simulation: { state: "failed", failureCode: code } });
    } finally {
      await db().provider.update({ where: { id: "riverbend-health" }, data: { fhirBaseUrl } });
    }
  });

  it("body: scenario only (400 invalid_request); unknown and session-only scenarios are 400 invalid_scenario", async () => {
    const { sandboxKey } = await createTestApplication();
    const session = await createSession(sandboxKey);
    for (const body of [{ scenario: "baseline-adult", categories: ["labs"] }, {}, { scenario: 7 }]) {
      const answer = await simulate(sandboxKey, session.id, body);
      expect([answer.status, answer.body.error?.code]).toEqual([400, "invalid_request"]);
    }
    for (const scenario of ["no-such-scenario", "connect-cancelled", "connect-failed"]) {
      const answer = await simulate(sandboxKey, session.id, { scenario });
      expect([answer.status, answer.body.error?.code]).toEqual([400, "invalid_scenario"]);
    }
    expect((await getSession(sandboxKey, session.id)).simulation).toBeNull();
  });

  it("grants the session categories the scenario covers; none is 400 invalid_categories", async () => {
    const { sandboxKey } = await createTestApplication();
    const none = await createSession(sandboxKey, ["labs", "conditions"]);
    const refused = await simulate(sandboxKey, none.id, { scenario: "consent-partial" });
    expect([refused.status, refused.body.error?.code]).toEqual([400, "invalid_categories"]);
    const some = await createSession(sandboxKey, ["labs", "medications"]);
    const granted = await simulate(sandboxKey, some.id, { scenario: "consent-partial" });
    expect(granted.body).toMatchObject({ status: "completed", grantedCategories: ["medications"] });
  });

  it("live keys get 403 sandbox_only, suspended applications 403 app_suspended, another application's session 404", async () => {
    const { sandboxKey, liveKey, application } = await createTestApplication();
    await db().application.update({ where: { id: application.id }, data: { productionEnabled: true, status: "active" } });
    const session = await createSession(sandboxKey);
    const live = await simulate(liveKey, session.id, { scenario: "baseline-adult" });
    expect([live.status, live.body.error?.code]).toEqual([403, "sandbox_only"]);
    const other = await createTestApplication();
    expect((await simulate(other.sandboxKey, session.id, { scenario: "baseline-adult" })).status).toBe(404);

    const suspended = await createTestApplication();
    const suspendedSession = await createSession(suspended.sandboxKey);
    await db().application.update({ where: { id: suspended.application.id }, data: { status: "suspended" } });
    const answer = await simulate(suspended.sandboxKey, suspendedSession.id, { scenario: "baseline-adult" });
    expect([answer.status, answer.body.error?.code]).toEqual([403, "app_suspended"]);
  });

  it("409 session_not_simulatable for a session cancelled, expired, or with a patient from a browser sign-in", async () => {
    const { sandboxKey, application } = await createTestApplication();
    const cancelled = await createSession(sandboxKey);
    await db().connectSession.update({ where: { id: cancelled.id }, data: { status: "cancelled", cancelledAt: new Date() } });
    const expired = await createSession(sandboxKey);
    await db().connectSession.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const signedIn = await createSession(sandboxKey);
    await chooseProviders(signedIn.id, "sandbox", ["riverbend-health"]);
    const token = linkToken("session", signedIn.id);
    const begun = await beginSignIn(token, "riverbend-health", process.env.CHARTKEY_PUBLIC_URL!);
    const callback = await issueAuthorizationCodeDirectly({ authorizationUrl: begun.authorizationUrl, patientKey: "baseline-adult.primary" });
    expect(await finishSignIn(callback, () => true)).toMatchObject({ error: null });

    for (const session of [cancelled, expired, signedIn]) {
      const answer = await simulate(sandboxKey, session.id, { scenario: "baseline-adult" });
      expect([answer.status, answer.body.error?.code]).toEqual([409, "session_not_simulatable"]);
    }
    expect(await db().patient.count({ where: { syntheticForApplicationId: application.id } })).toBe(0);
  });

  it("the 26th active synthetic patient is 409 sandbox_limit_reached with nothing created; purged or expired ones do not count; the limit is deployment-set", async () => {
    const { sandboxKey, application } = await createTestApplication();
    const now = Date.now();
    for (let index = 0; index < 25; index += 1) {
      await db().patient.create({ data: { id: newId("pat_"), environment: "sandbox", syntheticForApplicationId: application.id, scenario: "baseline-adult", purgeAt: new Date(now + DAY_MS) } });
    }
    // Past its purge time: no longer active even before the cycle deletes it.
    const stale = await db().patient.create({ data: { id: newId("pat_"), environment: "sandbox", syntheticForApplicationId: application.id, scenario: "baseline-adult", purgeAt: new Date(now - 1000) } });
    const session = await createSession(sandboxKey);
    const refused = await simulate(sandboxKey, session.id, { scenario: "baseline-adult" });
    expect([refused.status, refused.body.error?.code]).toEqual([409, "sandbox_limit_reached"]);
    expect(await db().patient.count({ where: { syntheticForApplicationId: application.id } })).toBe(26);
    expect(await db().subject.count({ where: { applicationId: application.id } })).toBe(0);
    expect(await getSession(sandboxKey, session.id)).toMatchObject({ status: "pending", subject: null, simulation: null });
    expect(await db().sourceAuthorization.count({ where: { connectSessionId: session.id } })).toBe(0);

    // Another application's patients do not count against this one.
    const other = await createTestApplication();
    expect((await simulate(other.sandboxKey, (await createSession(other.sandboxKey)).id, { scenario: "baseline-adult" })).status).toBe(200);

    process.env.CHARTKEY_SANDBOX_PATIENT_LIMIT = "27";
    expect((await simulate(sandboxKey, session.id, { scenario: "baseline-adult" })).status).toBe(200);
    expect(stale.id).toBeTruthy();
  });

  it("synthetic patients are purged by the lifecycle cycle 7 days after creation, with their EHR instance", async () => {
    const { sandboxKey } = await createTestApplication();
    const { subject } = await simulatedUser(sandboxKey, "baseline-adult");
    expect((await sandboxEvent(sandboxKey, subject, { type: "records.advance" })).status).toBe(200);
    const patient = (await db().subject.findUniqueOrThrow({ where: { id: subject } })).patientId;
    const instanceKey = `baseline-adult.primary.${patient}`;
    expect(await db().ehrPatientPhase.count({ where: { patientKey: instanceKey } })).toBe(1);

    await runLifecycle([purgeSyntheticPatients], new Date(Date.now() + 6 * DAY_MS));
    expect(await db().patient.findUnique({ where: { id: patient } })).not.toBeNull();
    const [outcome] = await runLifecycle([purgeSyntheticPatients], new Date(Date.now() + 7 * DAY_MS + 60_000));
    expect(outcome).toMatchObject({ name: "purge-synthetic-patients", affected: expect.any(Number) });
    expect(await db().patient.findUnique({ where: { id: patient } })).toBeNull();
    expect(await db().subject.findUnique({ where: { id: subject } })).toBeNull();
    expect(await db().record.count({ where: { subjectId: subject } })).toBe(0);
    expect(await db().ehrPatientPhase.count({ where: { patientKey: instanceKey } })).toBe(0);
    expect((await sandboxEvent(sandboxKey, subject, { type: "records.advance" })).status).toBe(404);
  });

  it("phases never leak across applications: each synthetic patient has its own EHR instance, and the browser's shared patient is untouched", async () => {
    const a = await createTestApplication();
    const b = await createTestApplication();
    const userA = await simulatedUser(a.sandboxKey, "baseline-adult");
    const userB = await simulatedUser(b.sandboxKey, "baseline-adult");
    const before = await listCategoryRecords(userB.auth, userB.subject, "medications", { limit: 100 });

    for (let step = 0; step < 3; step += 1) expect((await sandboxEvent(a.sandboxKey, userA.subject, { type: "records.advance" })).status).toBe(200);
    const patientOf = async (subject: string) => (await db().subject.findUniqueOrThrow({ where: { id: subject } })).patientId;
    expect(await currentEhrPatientPhase(findEhrPatient("riverbend-health", `baseline-adult.primary.${await patientOf(userA.subject)}`)!)).toBe(2);
    expect(await currentEhrPatientPhase(findEhrPatient("riverbend-health", `baseline-adult.primary.${await patientOf(userB.subject)}`)!)).toBe(0);
    expect(await currentEhrPatientPhase(findEhrPatient("riverbend-health", "baseline-adult.primary")!)).toBe(0);

    // B's next import reads B's own instance: nothing changes for B.
    const failB = await sandboxEvent(b.sandboxKey, userB.subject, { type: "source.fail" });
    expect(failB.status).toBe(200);
    const after = await listCategoryRecords(userB.auth, userB.subject, "medications", { limit: 100 });
    expect(after.data).toEqual(before.data);
  });
});
