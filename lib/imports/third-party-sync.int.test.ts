import type { Observation } from "@medplum/fhirtypes";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startWorker, type RunningWorker } from "@/lib/jobs";
import { QUEUE, stopSender } from "@/lib/queue";
import { request } from "@/test/api-server";
import { addThirdPartyProvider, connectThirdPartyPatient, startThirdPartySmartForFile } from "@/test/third-party-smart/live-patient";
import { waitFor } from "@/test/webhook-receiver";
import { continuousSyncJob, SYNC_JITTER } from "./continuous-sync";
import { importSource } from "./import-job";

// Continuous sync end to end against a SMART on FHIR server no code of ours serves (oidc-provider in front of
// @medplum/fhir-router, test/third-party-smart): the records change on that server, and the deployment's recurring
// `continuous-sync` job, worked by a real worker from its pg-boss queue, brings the change to the change feed and
// sends `records.updated`. Time is not waited for: the test moves the source's scheduled sync into the past, as six
// hours passing would, and offers the job a pass (what the worker's own timer does every minute).

const INTERVAL_MS = 6 * 60 * 60 * 1000; // the deployment's default schedule (CHARTKEY_SYNC_INTERVAL_MINUTES unset)
const WEBHOOK_URL = "https://hooks.labs.example/chartkey";
const PATIENT = "999";
const CATEGORIES = ["labs", "vitals", "conditions"] as const;

const servers = startThirdPartySmartForFile({ allowTestServerHost: true });
let worker: RunningWorker | null = null;

afterAll(async () => {
  await worker?.stop();
  await stopSender();
});

/** An approved, continuous application's live session; the patient signs in at the third-party server and shares. */
async function connectPatient() {
  const { provider } = await addThirdPartyProvider(servers.smart());
  const { liveKey, application, subjectId, source } = await connectThirdPartyPatient({
    api: servers.api(),
    providerId: provider.id,
    patient: PATIENT,
    asked: CATEGORIES,
    application: { syncMode: "continuous", webhookUrl: WEBHOOK_URL },
  });
  await importSource(source.id);
  return { key: liveKey, applicationId: application.id, subjectId, sourceId: source.id };
}

/** Offers the recurring job one pass, as the worker's timer does, and waits until the worker has finished it. */
async function scheduledPass() {
  const jobId = await worker!.boss.send(QUEUE.continuousSync, {});
  expect(jobId).not.toBeNull();
  await waitFor(async () => (await worker!.boss.getJobById(QUEUE.continuousSync, jobId!))?.state === "completed", "the continuous-sync pass", 30_000);
}

const sourceRow = (id: string) => db().source.findUniqueOrThrow({ where: { id } });
const tokenRequests = () => servers.smart().requests.filter((line) => line.startsWith("POST /token")).length;
/** Six hours pass: the source's scheduled sync is now due. */
const timePasses = (sourceId: string) => db().source.update({ where: { id: sourceId }, data: { nextSyncAt: new Date(Date.now() - 60_000) } });

type Change = { sequence: number; changeType: "upsert" | "delete"; recordId: string; record: { sources: { resourceId: string | null }[] } | null };

describe("continuous sync against a third-party SMART on FHIR server", () => {
  it("a change on the server reaches the change feed and records.updated on the next scheduled sync; an expired token is refreshed; a revoked refresh token gives sync.failed once and takes the source off the schedule", async () => {
    const live = await connectPatient();
    const cursors = new Map<string, string>();
    const recordIds = new Map<string, string>();
    for (const category of ["labs", "conditions"]) {
      const page = await request(servers.api().origin, "GET", `/api/v1/users/${live.subjectId}/records/${category}`, { token: live.key });
      expect(page.status).toBe(200);
      cursors.set(category, (page.body.meta as { changeCursor: string }).changeCursor);
      for (const record of page.body.data as { recordId: string; sources: { resourceId: string }[] }[]) recordIds.set(record.sources[0]!.resourceId, record.recordId);
    }
    expect(recordIds.get("pdex-Observation")).toBeDefined();
    expect(recordIds.get("pdex-Condition")).toBeDefined();

    // The worker's first pass gives the source its schedule: one jittered default interval after its last sync.
    worker = await startWorker(process.env.DATABASE_URL!, [continuousSyncJob]);
    const scheduled = await waitFor(async () => (await sourceRow(live.sourceId)).nextSyncAt, "the first scheduled sync");
    const lastSynced = (await sourceRow(live.sourceId)).lastSyncedAt!.getTime();
    expect(scheduled.getTime()).toBeGreaterThanOrEqual(lastSynced + INTERVAL_MS * (1 - SYNC_JITTER));
    expect(scheduled.getTime()).toBeLessThanOrEqual(lastSynced + INTERVAL_MS * (1 + SYNC_JITTER));
    // Not yet due: a pass reads nothing from the server.
    const readsBefore = servers.smart().requests.length;
    await scheduledPass();
    expect(servers.smart().requests.length).toBe(readsBefore);

    // The health system records a new lab result, corrects another, and removes a condition.
    await servers.smart().putResource({
      resourceType: "Observation",
      id: "third-party-glucose",
      status: "final",
      category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "laboratory" }] }],
      code: { coding: [{ system: "http://loinc.org", code: "2345-7", display: "Glucose [Mass/volume] in Serum or Plasma" }], text: "Glucose" },
      subject: { reference: `Patient/${PATIENT}` },
      effectiveDateTime: "2026-11-20T08:00:00Z",
      valueQuantity: { value: 97, unit: "mg/dL", system: "http://unitsofmeasure.org", code: "mg/dL" },
    });
    const hba1c = await servers.smart().readResource<Observation>("Observation", "pdex-Observation");
    await servers.smart().putResource({ ...hba1c, valueQuantity: { value: 6.9, unit: "%", system: "http://unitsofmeasure.org", code: "%" } });
    await servers.smart().deleteResource("Condition", "pdex-Condition");

    await timePasses(live.sourceId);
    const passAt = Date.now();
    await scheduledPass();
    const synced = await sourceRow(live.sourceId);
    expect(synced).toMatchObject({ syncStatus: "synced", lastError: null, syncFailures: 0 });
    expect(synced.lastSyncedAt!.getTime()).toBeGreaterThanOrEqual(passAt);
    expect(synced.nextSyncAt!.getTime()).toBeGreaterThanOrEqual(passAt + INTERVAL_MS * (1 - SYNC_JITTER));

    // The change feed, read from the cursors saved before: the new lab; the corrected one, whose clinical content
    // (so its record id) changed, as the old record's delete and the new one's upsert; and the removed condition.
    const labs = await request(servers.api().origin, "GET", `/api/v1/users/${live.subjectId}/records/labs/changes?cursor=${encodeURIComponent(cursors.get("labs")!)}`, { token: live.key });
    expect(labs.status).toBe(200);
    const labChanges = labs.body.data as Change[];
    expect(labChanges.map((change) => [change.changeType, change.record?.sources[0]?.resourceId ?? change.recordId]).sort()).toEqual([
      ["delete", recordIds.get("pdex-Observation")],
      ["upsert", "pdex-Observation"],
      ["upsert", "third-party-glucose"],
    ]);
    expect(JSON.stringify(labChanges.find((change) => change.record?.sources[0]?.resourceId === "pdex-Observation")!.record)).toContain('"value":6.9');
    const conditions = await request(servers.api().origin, "GET", `/api/v1/users/${live.subjectId}/records/conditions/changes?cursor=${encodeURIComponent(cursors.get("conditions")!)}`, { token: live.key });
    expect(conditions.body.data).toEqual([expect.objectContaining({ changeType: "delete", recordId: recordIds.get("pdex-Condition"), record: null })]);

    // One records.updated from the pass, for the live environment, queued for the application's webhook endpoint.
    const updated = await db().event.findMany({ where: { applicationId: live.applicationId, type: "records.updated", createdAt: { gte: new Date(passAt) } }, include: { deliveries: true } });
    expect(updated).toHaveLength(1);
    expect(updated[0]!.environment).toBe("live");
    expect(updated[0]!.data).toMatchObject({ subject: live.subjectId, sourceId: live.sourceId, upserts: 2, deletes: 2, categories: expect.arrayContaining(["labs", "conditions"]) });
    expect(updated[0]!.deliveries.map((delivery) => delivery.url)).toEqual([WEBHOOK_URL]);

    // The access token expires at the server: the next scheduled sync refreshes it once and succeeds.
    await servers.smart().expireAccessTokens();
    const tokensBefore = tokenRequests();
    const sealedBefore = synced.accessTokenEncrypted;
    await timePasses(live.sourceId);
    await scheduledPass();
    const refreshed = await sourceRow(live.sourceId);
    expect(tokenRequests()).toBe(tokensBefore + 1);
    expect(refreshed.accessTokenEncrypted).not.toBe(sealedBefore);
    expect(refreshed).toMatchObject({ syncStatus: "synced", lastError: null, syncFailures: 0 });

    // The server revokes the refresh token: the next scheduled sync fails once with sync.failed, and the source leaves
    // the schedule (it cannot succeed until the patient signs in again through Connect).
    await servers.smart().revokeRefreshTokens();
    await servers.smart().expireAccessTokens();
    await timePasses(live.sourceId);
    await scheduledPass();
    const failed = await sourceRow(live.sourceId);
    expect(failed).toMatchObject({ syncStatus: "partial", syncFailures: 1 });
    expect(failed.lastError).toMatch(/^reauthorization_required: /);
    expect(failed.nextSyncAt).toBeNull();
    const syncFailed = await db().event.findMany({ where: { applicationId: live.applicationId, type: "sync.failed" }, include: { deliveries: true } });
    expect(syncFailed.map((event) => event.data)).toEqual([expect.objectContaining({ subject: live.subjectId, sourceId: live.sourceId, code: "reauthorization_required" })]);
    expect(syncFailed[0]!.deliveries.map((delivery) => delivery.url)).toEqual([WEBHOOK_URL]);
    // The records already imported stay readable.
    expect((await request(servers.api().origin, "GET", `/api/v1/users/${live.subjectId}/records/labs`, { token: live.key })).status).toBe(200);
  });
});
