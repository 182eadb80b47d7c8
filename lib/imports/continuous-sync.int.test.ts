import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authenticateKey, createApiKey } from "@/lib/auth";
import { attachSource, chooseProviders, completeSession, createConnectSession } from "@/lib/connect";
import { db } from "@/lib/db";
import { advanceEhrPatientPhase, clearEhrFaults, ehrEndpoints, injectEhrFault, issueAuthorizationCodeDirectly, SANDBOX_CLIENT_ID, sandboxClientSecret, simulatedEhrPatientKey } from "@/lib/ehr";
import { createLiveProvider } from "@/lib/provider-directory";
import { beginAuthorization, completeAuthorization, ensureSandboxProviders } from "@/lib/sources";
import { getHealthRecord } from "@/lib/users";
import { createTestApplication, createTestDeveloper } from "@/test/factories";
import { serveRouteFiles } from "@/test/route-server";
import { importSource } from "./import-job";
import { jittered, MAX_SYNC_BACKOFF_MS, runDueSyncs, SYNC_JITTER, syncDelayMs } from "./continuous-sync";

// The synthetic health system riverbend-health, served over real HTTP and added by an operator to the live provider
// directory, as a self-hosted health system on the deployment's own network would be.
const EHR = "riverbend-health";
const HOUR = 60 * 60 * 1000;
const INTERVAL = 6 * HOUR;
let ehr: Awaited<ReturnType<typeof serveRouteFiles>>;
let liveProviderId = "";
const previousPublicUrl = process.env.CHARTKEY_PUBLIC_URL;

beforeAll(async () => {
  ehr = await serveRouteFiles("ehr");
  process.env.CHARTKEY_PUBLIC_URL = ehr.origin;
  await ensureSandboxProviders();
  const operator = await createTestDeveloper();
  vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", operator.email);
  vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "127.0.0.1");
  const provider = await createLiveProvider(operator.id, {
    name: "Riverbend Health (live)",
    fhirBaseUrl: ehrEndpoints(EHR).fhirBase,
    clientId: SANDBOX_CLIENT_ID,
    clientSecret: sandboxClientSecret(EHR),
  });
  liveProviderId = provider.id;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  process.env.CHARTKEY_PUBLIC_URL = previousPublicUrl;
  clearEhrFaults();
  await ehr.close();
});

type Connected = { applicationId: string; sourceId: string; subjectId: string; patientKey: string; receiptId: string; key: Awaited<ReturnType<typeof authenticateKey>> };

/** A patient connects the live provider under an application (live key), consents and is imported once. */
async function connectLive(options: { syncMode?: "continuous" | "one_time"; applicationId?: string; externalUserId?: string } = {}): Promise<Connected> {
  const liveKey = options.applicationId
    ? (await createApiKey({ applicationId: options.applicationId, environment: "live" })).key
    : (await createTestApplication({ syncMode: options.syncMode ?? "continuous", productionEnabled: true, status: "active" })).liveKey;
  const key = await authenticateKey(`Bearer ${liveKey}`);
  const session = await createConnectSession(key, { categories: ["labs", "vitals", "conditions"], externalUserId: options.externalUserId }, ehr.origin);
  await chooseProviders(session.id, "live", [liveProviderId]);
  const patientKey = simulatedEhrPatientKey("baseline-adult", "primary", randomBytes(6).toString("hex"));
  const begun = await beginAuthorization({ connectSessionId: session.id, providerId: liveProviderId, redirectUri: `${ehr.origin}/connect/callback` });
  const callbackUrl = await issueAuthorizationCodeDirectly({ authorizationUrl: begun.authorizationUrl, patientKey });
  const completed = await completeAuthorization({ state: begun.state, callbackUrl });
  const sourceId = await attachSource(session.id, liveProviderId, completed.tokens);
  const { receipt, subjectId } = await completeSession(session.id, ["labs", "vitals", "conditions"]);
  await importSource(sourceId);
  return { applicationId: key.application.id, sourceId, subjectId, patientKey, receiptId: receipt.id, key };
}

const source = (id: string) => db().source.findUniqueOrThrow({ where: { id } });
const events = (applicationId: string, type: string) => db().event.findMany({ where: { applicationId, type }, orderBy: { createdAt: "asc" } });
const at = (date: Date, ms: number) => new Date(date.getTime() + ms);

/** Runs passes until the source's first scheduled sync has been given a time, and returns that time. */
async function scheduledTime(sourceId: string, now: Date): Promise<Date> {
  await runDueSyncs({ now, intervalMs: INTERVAL });
  const row = await source(sourceId);
  expect(row.nextSyncAt).not.toBeNull();
  return row.nextSyncAt!;
}

describe("continuous sync", () => {
  it("schedules a live source one jittered interval after its last sync, and its sync brings a change on the EHR to the change feed and records.updated", async () => {
    const live = await connectLive();
    const synced = (await source(live.sourceId)).lastSyncedAt!;
    const next = await scheduledTime(live.sourceId, new Date());
    expect(next.getTime()).toBeGreaterThanOrEqual(synced.getTime() + INTERVAL * (1 - SYNC_JITTER));
    expect(next.getTime()).toBeLessThanOrEqual(synced.getTime() + INTERVAL * (1 + SYNC_JITTER));

    // Nothing is due before the time: a pass a minute earlier imports nothing.
    const importsBefore = await db().sourceImport.count({ where: { sourceId: live.sourceId } });
    expect((await runDueSyncs({ now: at(next, -60_000), intervalMs: INTERVAL })).synced).toEqual([]);
    expect(await db().sourceImport.count({ where: { sourceId: live.sourceId } })).toBe(importsBefore);

    // The health system's record changes; the due pass imports it.
    const changesBefore = await db().recordChange.count({ where: { subjectId: live.subjectId } });
    const eventsBefore = (await events(live.applicationId, "records.updated")).length;
    await advanceEhrPatientPhase(EHR, live.patientKey);
    const pass = await runDueSyncs({ now: next, intervalMs: INTERVAL });
    expect(pass.synced).toEqual([live.sourceId]);
    expect(await db().recordChange.count({ where: { subjectId: live.subjectId } })).toBeGreaterThan(changesBefore);
    const [updated, ...more] = (await events(live.applicationId, "records.updated")).slice(eventsBefore);
    expect(more).toEqual([]);
    expect(updated!.environment).toBe("live");
    expect(updated!.data).toMatchObject({ subject: live.subjectId, sourceId: live.sourceId });
    const after = await source(live.sourceId);
    expect(after.syncStatus).toBe("synced");
    expect(after.nextSyncAt!.getTime()).toBeGreaterThanOrEqual(next.getTime() + INTERVAL * (1 - SYNC_JITTER));
    expect(after.nextSyncAt!.getTime()).toBeLessThanOrEqual(next.getTime() + INTERVAL * (1 + SYNC_JITTER));

    // With no change at the health system, the next sync stores nothing new and sends no event.
    await runDueSyncs({ now: after.nextSyncAt!, intervalMs: INTERVAL });
    expect(await events(live.applicationId, "records.updated")).toHaveLength(eventsBefore + 1);
  });

  it("refreshes an expired access token before reading", async () => {
    const live = await connectLive();
    const next = await scheduledTime(live.sourceId, new Date());
    const before = await source(live.sourceId);
    await db().source.update({ where: { id: live.sourceId }, data: { tokenExpiresAt: new Date(Date.now() - 60_000) } });
    const served = ehr.served.length;
    const pass = await runDueSyncs({ now: next, intervalMs: INTERVAL });
    expect(pass.synced).toEqual([live.sourceId]);
    const after = await source(live.sourceId);
    expect(ehr.served.slice(served).filter((request) => request.method === "POST" && request.path.endsWith("/token"))).toHaveLength(1);
    expect(after.accessTokenEncrypted).not.toBe(before.accessTokenEncrypted);
    expect(after.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(after.syncStatus).toBe("synced");
  });

  it("a revoked refresh token fails the sync once with sync.failed (reauthorization_required), keeps the source partial, takes it off the schedule until the patient reconnects, and the snapshot says so", async () => {
    const live = await connectLive({ externalUserId: "reauth-patient" });
    const next = await scheduledTime(live.sourceId, new Date());
    await db().ehrRefreshToken.updateMany({ where: { providerId: EHR, patientKey: live.patientKey }, data: { revokedAt: new Date() } });
    await db().source.update({ where: { id: live.sourceId }, data: { tokenExpiresAt: new Date(Date.now() - 60_000) } });

    const pass = await runDueSyncs({ now: next, intervalMs: INTERVAL, random: () => 0.5 });
    expect(pass.failed).toEqual([live.sourceId]);
    const failed = await events(live.applicationId, "sync.failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toMatchObject({ sourceId: live.sourceId, code: "reauthorization_required" });
    const after = await source(live.sourceId);
    expect(after.syncStatus).toBe("partial");
    expect(after.lastError).toMatch(/^reauthorization_required/);
    // The message names the provider by its name, never its internal id.
    expect(after.lastError).not.toMatch(/prov_|src_/);
    expect(after.syncFailures).toBe(1);
    // No import can succeed until the patient signs in again: the source is off the schedule.
    expect(after.nextSyncAt).toBeNull();

    // The application is told: the snapshot's warning is reauthorization_required, not source_unavailable.
    const snapshot = await getHealthRecord(live.key, live.subjectId, undefined);
    expect(snapshot.syncStatus).toBe("partial");
    expect(snapshot.warnings).toEqual([{ code: "reauthorization_required", message: expect.stringContaining("Riverbend Health (live) needs the patient to sign in again"), sourceId: live.sourceId }]);

    // A month of passes: nothing is imported, no other sync.failed.
    const imports = await db().sourceImport.count({ where: { sourceId: live.sourceId } });
    for (const days of [1, 7, 30]) expect((await runDueSyncs({ now: at(next, days * 24 * HOUR), intervalMs: INTERVAL })).failed).toEqual([]);
    expect(await db().sourceImport.count({ where: { sourceId: live.sourceId } })).toBe(imports);
    expect(await events(live.applicationId, "sync.failed")).toHaveLength(1);
    expect((await source(live.sourceId)).nextSyncAt).toBeNull();

    // The patient reconnects through Connect (a session for the same user): the source is back on the schedule.
    const again = await connectLive({ applicationId: live.applicationId, externalUserId: "reauth-patient" });
    expect(again.sourceId).toBe(live.sourceId);
    expect((await source(live.sourceId)).lastError).toBeNull();
    expect((await scheduledTime(live.sourceId, new Date())).getTime()).toBeGreaterThan(Date.now());
    expect((await getHealthRecord(again.key, live.subjectId, undefined)).warnings).toEqual([]);
  });

  it("a health system that is down fails the sync with the transient source_unavailable and backs off", async () => {
    const live = await connectLive();
    const next = await scheduledTime(live.sourceId, new Date());
    await db().source.update({ where: { id: live.sourceId }, data: { failNextImport: true } });
    const pass = await runDueSyncs({ now: next, intervalMs: INTERVAL, random: () => 0.5 });
    expect(pass.failed).toEqual([live.sourceId]);
    const after = await source(live.sourceId);
    expect(after.lastError).toMatch(/^source_unavailable/);
    expect(after.nextSyncAt).toEqual(at(next, 2 * INTERVAL));
    const snapshot = await getHealthRecord(live.key, live.subjectId, undefined);
    expect(snapshot.warnings).toEqual([{ code: "source_unavailable", message: expect.stringContaining("could not be read"), sourceId: live.sourceId }]);
  });

  it("stops the schedule when the receipt is revoked or expires, and never schedules one-time or sandbox sources", async () => {
    const revoked = await connectLive();
    const expired = await connectLive();
    const oneTime = await connectLive({ syncMode: "one_time" });
    const now = new Date();
    await runDueSyncs({ now, intervalMs: INTERVAL });
    expect((await source(oneTime.sourceId)).nextSyncAt).toBeNull();
    expect(await db().source.count({ where: { nextSyncAt: { not: null }, subject: { environment: "sandbox" } } })).toBe(0);

    await db().consentReceipt.update({ where: { id: revoked.receiptId }, data: { status: "revoked", revokedAt: now } });
    await db().consentReceipt.update({ where: { id: expired.receiptId }, data: { expiresAt: at(now, HOUR) } });
    const ended = { sourceId: { in: [revoked.sourceId, expired.sourceId, oneTime.sourceId] } };
    const imports = await db().sourceImport.count({ where: ended });
    const later = at(now, 30 * 24 * HOUR);
    const pass = await runDueSyncs({ now: later, intervalMs: INTERVAL });
    expect(pass.synced).not.toContain(revoked.sourceId);
    expect(pass.synced).not.toContain(expired.sourceId);
    expect(await db().sourceImport.count({ where: ended })).toBe(imports);
    expect((await source(revoked.sourceId)).nextSyncAt).toBeNull();
    expect((await source(expired.sourceId)).nextSyncAt).toBeNull();
  });

  it("runs at most the configured number of syncs at once", async () => {
    const first = await connectLive();
    const others = await Promise.all([1, 2, 3, 4].map(() => connectLive({ applicationId: first.applicationId })));
    const all = [first, ...others];
    const now = new Date();
    await runDueSyncs({ now, intervalMs: INTERVAL });
    // Each health system answer is delayed a second (one 503 with Retry-After: 1), so the imports overlap.
    for (const connected of all) injectEhrFault(EHR, connected.patientKey, { status: 503, count: 1, retryAfterSeconds: 1 });
    const due = at(now, 2 * INTERVAL);
    const pass = await runDueSyncs({ now: due, intervalMs: INTERVAL, concurrency: 2 });
    // Sources of the earlier tests may be due as well; they count towards the limit like any other.
    expect(pass.synced).toEqual(expect.arrayContaining(all.map((connected) => connected.sourceId)));
    const runs = await db().sourceImport.findMany({ where: { sourceId: { in: [...pass.synced, ...pass.failed] }, startedAt: { gte: now } }, select: { startedAt: true, finishedAt: true } });
    expect(runs.length).toBeGreaterThanOrEqual(5);
    const overlapAt = (instant: Date) => runs.filter((run) => run.startedAt <= instant && run.finishedAt! > instant).length;
    const most = Math.max(...runs.map((run) => overlapAt(run.startedAt)));
    expect(most).toBe(2);
  });
});

describe("the schedule's arithmetic", () => {
  it("jitters within ±10% of the delay, and spreads sources", () => {
    const from = new Date("2026-01-01T00:00:00.000Z");
    expect(jittered(from, INTERVAL, () => 0)).toEqual(at(from, INTERVAL * 0.9));
    expect(jittered(from, INTERVAL, () => 0.999999).getTime()).toBeLessThanOrEqual(at(from, INTERVAL * 1.1).getTime());
    const spread = new Set(Array.from({ length: 50 }, () => jittered(from, INTERVAL).getTime()));
    expect(spread.size).toBeGreaterThan(40);
    for (const time of spread) expect(Math.abs(time - from.getTime() - INTERVAL)).toBeLessThanOrEqual(INTERVAL * SYNC_JITTER);
  });

  it("doubles the delay per failure, capped at a week", () => {
    expect(syncDelayMs(INTERVAL, 0)).toBe(INTERVAL);
    expect(syncDelayMs(INTERVAL, 1)).toBe(2 * INTERVAL);
    expect(syncDelayMs(INTERVAL, 3)).toBe(8 * INTERVAL);
    expect(syncDelayMs(INTERVAL, 20)).toBe(MAX_SYNC_BACKOFF_MS);
  });
});
