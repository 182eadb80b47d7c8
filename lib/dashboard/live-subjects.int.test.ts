import { describe, expect, it } from "vitest";
import { grantReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { runDueSyncs } from "@/lib/imports";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { liveSubjectView, liveSubjectViews } from "./live-subjects";

const HOUR = 60 * 60 * 1000;

async function liveProvider() {
  const id = newId("prov_");
  return db().provider.create({
    data: { id, environment: "live", name: "Third Party Health", fhirBaseUrl: `https://${id.slice(5).toLowerCase()}.example.test/fhir`, authorizeUrl: "https://x.example.test/a", tokenUrl: "https://x.example.test/t", clientId: "c", clientSecretEncrypted: "" },
  });
}

/** A live subject with one connected source and, unless `consent` is false, an active receipt. */
async function subjectWithSource(applicationId: string, options: { consent?: boolean; lastError?: string } = {}) {
  const subject = await createTestSubject(applicationId, "live");
  const receipt = options.consent === false ? null : await grantReceipt({ applicationId, environment: "live", subjectId: subject.id, categories: ["labs"] });
  const provider = await liveProvider();
  const source = await db().source.create({
    data: { id: newId("src_"), patientId: subject.patientId, subjectId: subject.id, providerId: provider.id, connected: true, syncStatus: options.lastError ? "partial" : "synced", lastSyncedAt: new Date(), lastError: options.lastError ?? null },
  });
  return { subject, receipt, source };
}

const scheduleOf = async (applicationId: string, subjectId: string) => (await liveSubjectView(applicationId, subjectId))!.sources[0]!.schedule;

describe("the dashboard's live subjects", () => {
  it("shows each source's next scheduled sync as continuous sync set it, or why there is none", async () => {
    const { application } = await createTestApplication({ syncMode: "continuous" });
    const scheduled = await subjectWithSource(application.id);
    const unconsented = await subjectWithSource(application.id, { consent: false });
    const revoked = await subjectWithSource(application.id);
    await db().consentReceipt.update({ where: { id: revoked.receipt!.id }, data: { status: "revoked", revokedAt: new Date() } });
    const expired = await subjectWithSource(application.id);
    await db().consentReceipt.update({ where: { id: expired.receipt!.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const disconnected = await subjectWithSource(application.id);
    await db().source.update({ where: { id: disconnected.source.id }, data: { connected: false } });

    // Before the job's first pass, a source in scope is being scheduled.
    expect(await scheduleOf(application.id, scheduled.subject.id)).toEqual({ kind: "pending" });
    await runDueSyncs({ now: new Date(), intervalMs: 6 * HOUR });
    const { nextSyncAt } = await db().source.findUniqueOrThrow({ where: { id: scheduled.source.id } });
    expect(await scheduleOf(application.id, scheduled.subject.id)).toEqual({ kind: "scheduled", at: nextSyncAt });
    expect(await scheduleOf(application.id, unconsented.subject.id)).toEqual({ kind: "stopped", reason: "no_consent" });
    expect(await scheduleOf(application.id, revoked.subject.id)).toEqual({ kind: "stopped", reason: "consent_revoked" });
    expect(await scheduleOf(application.id, expired.subject.id)).toEqual({ kind: "stopped", reason: "consent_expired" });
    expect((await liveSubjectView(application.id, expired.subject.id))!.receipt!.status).toBe("expired");
    expect(await scheduleOf(application.id, disconnected.subject.id)).toEqual({ kind: "stopped", reason: "disconnected" });

    await db().application.update({ where: { id: application.id }, data: { status: "suspended" } });
    await runDueSyncs({ now: new Date(), intervalMs: 6 * HOUR });
    expect(await scheduleOf(application.id, scheduled.subject.id)).toEqual({ kind: "stopped", reason: "suspended" });

    const oneTime = await createTestApplication({ syncMode: "one_time" });
    const once = await subjectWithSource(oneTime.application.id);
    expect(await scheduleOf(oneTime.application.id, once.subject.id)).toEqual({ kind: "stopped", reason: "one_time" });
  });

  it("splits the last error into the code sync.failed carried and its message", async () => {
    const { application } = await createTestApplication({ syncMode: "continuous" });
    const failing = await subjectWithSource(application.id, { lastError: "reauthorization_required: The health system refused the refresh token (invalid_grant)." });
    const [source] = (await liveSubjectView(application.id, failing.subject.id))!.sources;
    expect(source).toMatchObject({ syncStatus: "partial", lastError: { code: "reauthorization_required", message: "The health system refused the refresh token (invalid_grant)." } });
  });

  it("lists only the application's live subjects, newest first, and pages on", async () => {
    const { application } = await createTestApplication();
    const other = await createTestApplication();
    const first = await subjectWithSource(application.id);
    const second = await subjectWithSource(application.id);
    await db().subject.update({ where: { id: second.subject.id }, data: { createdAt: new Date(first.subject.createdAt.getTime() + 1000) } });
    const sandbox = await createTestSubject(application.id, "sandbox");
    const foreign = await subjectWithSource(other.application.id);

    const listed = (await liveSubjectViews(application.id)).map((subject) => subject.id);
    expect(listed).toEqual([second.subject.id, first.subject.id]);
    expect((await liveSubjectViews(application.id, { limit: 1 })).map((subject) => subject.id)).toEqual([second.subject.id]);
    expect((await liveSubjectViews(application.id, { before: second.subject.id })).map((subject) => subject.id)).toEqual([first.subject.id]);
    expect(await liveSubjectView(application.id, sandbox.id)).toBeNull();
    expect(await liveSubjectView(application.id, foreign.subject.id)).toBeNull();
    expect(await liveSubjectView(application.id, "u_\u0000")).toBeNull();
  });
});
