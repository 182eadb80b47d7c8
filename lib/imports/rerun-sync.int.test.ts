import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authenticateKey } from "@/lib/auth";
import { attachSource, chooseProviders, completeSession, createConnectSession } from "@/lib/connect";
import { revokeReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { ehrEndpoints, issueAuthorizationCodeDirectly, SANDBOX_CLIENT_ID, sandboxClientSecret, simulatedEhrPatientKey } from "@/lib/ehr";
import { startWorker, type RunningWorker } from "@/lib/jobs";
import { createLiveProvider } from "@/lib/provider-directory";
import { QUEUE, stopSender } from "@/lib/queue";
import { beginAuthorization, completeAuthorization, ensureSandboxProviders } from "@/lib/sources";
import { getApplicationAccess, type ApplicationAccess } from "@/lib/team";
import { createTestApplication, createTestDeveloper } from "@/test/factories";
import { serveRouteFiles } from "@/test/route-server";
import { providerSyncSummaries, sourceImportHistory } from "./import-history";
import { importSource, sourceImportJob } from "./import-job";
import { RERUN_POLICY, rerunApplicationSource, rerunProviderSyncs, rerunSourceAsOperator } from "./rerun-sync";

// A live health system (the synthetic riverbend-health over real HTTP, added by an operator), one patient connected
// under a continuous application; the real import job works the queue.
const EHR = "riverbend-health";
const PROVIDER_NAME = "Riverbend Health (history)";
let ehr: Awaited<ReturnType<typeof serveRouteFiles>>;
let worker: RunningWorker | undefined;
let providerId = "";
let operatorId = "";
const previousPublicUrl = process.env.CHARTKEY_PUBLIC_URL;

beforeAll(async () => {
  ehr = await serveRouteFiles("ehr");
  process.env.CHARTKEY_PUBLIC_URL = ehr.origin;
  await ensureSandboxProviders();
  const operator = await createTestDeveloper();
  operatorId = operator.id;
  vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", operator.email);
  vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "127.0.0.1");
  providerId = (await createLiveProvider(operator.id, { name: PROVIDER_NAME, fhirBaseUrl: ehrEndpoints(EHR).fhirBase, clientId: SANDBOX_CLIENT_ID, clientSecret: sandboxClientSecret(EHR) })).id;
});

afterAll(async () => {
  await worker?.stop();
  await stopSender();
  vi.unstubAllEnvs();
  process.env.CHARTKEY_PUBLIC_URL = previousPublicUrl;
  await ehr.close();
});

async function connectLive() {
  const created = await createTestApplication({ syncMode: "continuous", productionEnabled: true, status: "active" });
  const key = await authenticateKey(`Bearer ${created.liveKey}`);
  const session = await createConnectSession(key, { categories: ["labs", "vitals"] }, ehr.origin);
  await chooseProviders(session.id, "live", [providerId]);
  const patientKey = simulatedEhrPatientKey("baseline-adult", "primary", randomBytes(6).toString("hex"));
  const begun = await beginAuthorization({ connectSessionId: session.id, providerId, redirectUri: `${ehr.origin}/connect/callback` });
  const callbackUrl = await issueAuthorizationCodeDirectly({ authorizationUrl: begun.authorizationUrl, patientKey });
  const completed = await completeAuthorization({ state: begun.state, callbackUrl });
  const sourceId = await attachSource(session.id, providerId, completed.tokens);
  const { receipt, subjectId } = await completeSession(session.id, ["labs", "vitals"]);
  await importSource(sourceId);
  const access = (await getApplicationAccess(created.developer.id, created.application.id)) as ApplicationAccess;
  return { access, sourceId, subjectId, receiptId: receipt.id, applicationName: created.application.name };
}

async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

const historyOf = async (sourceId: string) => (await sourceImportHistory([sourceId])).get(sourceId)!;
const audit = (action: string, targetId: string) => db().auditEntry.findMany({ where: { action, targetId } });

describe("import history and re-runs", () => {
  it("keeps each import (trigger, outcome and code, resources read, records changed, duration); a member's re-run is queued, audited, run by the import job and ends the backoff; the provider's summary counts across subjects", async () => {
    const live = await connectLive();
    // A scheduled sync that fails as an unreachable health system would (the sandbox's source.fail).
    await db().source.update({ where: { id: live.sourceId }, data: { failNextImport: true } });
    await expect(importSource(live.sourceId, { trigger: "schedule" })).rejects.toThrow(/could not be reached/);
    await db().source.update({ where: { id: live.sourceId }, data: { syncFailures: 3, nextSyncAt: new Date(Date.now() + 48 * 3600_000) } });

    const [failed, connected] = await historyOf(live.sourceId);
    expect(connected).toMatchObject({ trigger: "connect", status: "completed", code: null, message: null });
    expect(connected!.resourcesRead).toBeGreaterThan(0);
    expect(connected!.recordsChanged).toBeGreaterThan(0);
    expect(connected!.durationMs).toBeGreaterThanOrEqual(0);
    expect(failed).toMatchObject({ trigger: "schedule", status: "failed", code: "source_unavailable", resourcesRead: 0, recordsChanged: 0 });
    expect(failed!.message).toMatch(/could not be reached/);

    worker = await startWorker(process.env.DATABASE_URL as string, [sourceImportJob]);
    expect(await rerunApplicationSource(live.access, live.sourceId)).toEqual({ providerName: PROVIDER_NAME });
    await waitFor(async () => (await historyOf(live.sourceId))[0]?.trigger === "rerun" && (await historyOf(live.sourceId))[0]?.status === "completed", "the re-run import completing");
    const [rerun] = await historyOf(live.sourceId);
    expect(rerun!.resourcesRead).toBe(connected!.resourcesRead);
    expect(rerun!.recordsChanged).toBe(0);
    // A successful re-run ends the backoff: the schedule picks the source up again one interval after this sync.
    await waitFor(async () => (await db().source.findUniqueOrThrow({ where: { id: live.sourceId } })).syncFailures === 0, "the backoff reset");
    expect(await db().source.findUniqueOrThrow({ where: { id: live.sourceId } })).toMatchObject({ syncStatus: "synced", lastError: null, nextSyncAt: null });
    const [entry] = await audit("source.sync_rerun", live.sourceId);
    expect(entry).toMatchObject({ actorType: "developer", actorId: live.access.developerId, applicationId: live.access.application.id });
    expect(entry!.after).toEqual({ subject: live.subjectId, provider: PROVIDER_NAME });

    // Per provider, across subjects: what ended which way over the week, and the latest failures with their application.
    const other = await connectLive();
    const summary = (await providerSyncSummaries([providerId])).get(providerId)!;
    expect(summary).toMatchObject({ failed: 1, running: 0 });
    expect(summary.completed).toBeGreaterThanOrEqual(3);
    expect(summary.successRate).toBeCloseTo(summary.completed / (summary.completed + 1));
    expect(summary.lastFailures).toEqual([expect.objectContaining({ sourceId: live.sourceId, subjectId: live.subjectId, code: "source_unavailable", applicationName: live.applicationName })]);
    expect(summary.rerunnable).toBeGreaterThanOrEqual(2);

    // Another team's member cannot re-run it; it is "not found", as a source that does not exist.
    await expect(rerunApplicationSource(other.access, live.sourceId)).rejects.toThrow("That source was not found.");
    await expect(rerunApplicationSource(other.access, "src_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd")).rejects.toThrow("That source was not found.");

    // An operator re-runs all of the provider's syncs (after fixing it), in one audited request.
    const imports = await db().sourceImport.count({ where: { source: { providerId }, trigger: "rerun" } });
    const all = await rerunProviderSyncs(operatorId, providerId);
    expect(all).toEqual({ providerName: PROVIDER_NAME, sources: summary.rerunnable });
    await waitFor(async () => (await db().sourceImport.count({ where: { source: { providerId }, trigger: "rerun", status: "completed" } })) >= imports + all.sources, "every re-run of the provider completing");
    const [providerEntry] = await audit("provider.sync_rerun", providerId);
    expect(providerEntry).toMatchObject({ actorType: "operator", actorId: operatorId, after: { name: PROVIDER_NAME, sources: all.sources } });
    // Re-runs are an operator's: anyone else is told the page does not exist.
    await expect(rerunProviderSyncs(live.access.developerId, providerId)).rejects.toThrow("The page was not found.");
    await expect(rerunSourceAsOperator(live.access.developerId, live.sourceId)).rejects.toThrow("The page was not found.");
    expect(await rerunSourceAsOperator(operatorId, other.sourceId)).toEqual({ providerName: PROVIDER_NAME });
    await waitFor(async () => (await db().sourceImport.count({ where: { sourceId: other.sourceId, status: "running" } })) === 0 && (await historyOf(other.sourceId))[0]!.trigger === "rerun", "the operator's re-run completing");

    // A team's re-runs are limited per application; the refusal says so. Every import job ends first (queued ones
    // too: the provider-wide re-run and the operator's can both be queued for the source): a job the worker stopped in
    // the middle would leave its import running, and a running import refuses a re-run as "being synced" before the
    // limit is counted (seen on a busy machine).
    await waitFor(async () => (await worker!.boss.getQueueSize(QUEUE.sourceImport, { before: "completed" })) === 0, "every import job ending", 60_000);
    await worker.stop();
    worker = undefined;
    let refusal: unknown = null;
    for (let attempt = 0; attempt <= RERUN_POLICY.points && !refusal; attempt += 1) {
      await rerunApplicationSource(other.access, other.sourceId).catch((error: unknown) => (refusal = error));
    }
    expect(String(refusal)).toContain(`Too many re-runs for this application: at most ${RERUN_POLICY.points} every 10 minutes`);

    // A share the patient revoked is never read again, whoever asks; the refusal names the health system.
    await revokeReceipt(live.receiptId, "patient");
    await expect(rerunSourceAsOperator(operatorId, live.sourceId)).rejects.toThrow(`${PROVIDER_NAME} cannot be synced for this subject now`);
  });
});
