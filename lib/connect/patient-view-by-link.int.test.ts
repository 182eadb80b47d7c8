import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { flushRequestLog } from "@/lib/http";
import { newId } from "@/lib/ids";
import { ensureSandboxProviders } from "@/lib/sources";
import { subjectWithCredential } from "@/test/agents";
import { request, startApiServer } from "@/test/api-server";
import { sharingSubject } from "@/test/records";
import { linkToken, linkTokenHash } from "./link-tokens";
import { patientViewByLink } from "./patient-view-by-link";

// The patient's own view on the receipt page, from what the platform really logged: reads made through the API with
// the application's key and with an AI agent's credential, written to the request log by the route pipeline.

let origin: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ origin, close } = await startApiServer());
  await ensureSandboxProviders();
});
afterAll(() => close());

async function receiptLink(receiptId: string) {
  const token = linkToken("receipt", receiptId);
  await db().consentReceipt.update({ where: { id: receiptId }, data: { patientTokenHash: linkTokenHash(token) } });
  return token;
}

describe("the patient's view of who read what", () => {
  it("health systems, records per readable category, and each day's reads with the AI agent's purpose and reads", async () => {
    const sharing = await subjectWithCredential(origin, { categories: ["labs"] });
    const { subject, sandboxKey, receipt, application } = sharing;
    const syncedAt = new Date("2026-12-01T08:00:00Z");
    await db().source.create({ data: { id: newId("src_"), patientId: subject.patientId, subjectId: subject.id, providerId: "riverbend-health", connected: true, syncStatus: "synced", lastSyncedAt: syncedAt } });
    const token = await receiptLink(receipt.id);

    const base = `/api/v1/users/${subject.id}/records`;
    expect((await request(origin, "GET", base, { token: sandboxKey })).status).toBe(200);
    expect((await request(origin, "GET", `${base}/medications`, { token: sandboxKey })).status).toBe(200);
    for (let read = 0; read < 3; read++) expect((await request(origin, "GET", `${base}/labs`, { token: sharing.credential.token })).status).toBe(200);
    // Refused reads disclose nothing and are not counted: outside the agent's categories, and a category not shared.
    expect((await request(origin, "GET", `${base}/medications`, { token: sharing.credential.token })).status).toBe(403);
    expect((await request(origin, "GET", `${base}/vitals`, { token: sandboxKey })).status).toBe(403);
    // Another subject's reads stay out of this patient's history.
    const other = await sharingSubject();
    expect((await request(origin, "GET", `/api/v1/users/${other.subject.id}/records/labs`, { token: other.sandboxKey })).status).toBe(200);
    await flushRequestLog();

    const view = await patientViewByLink(token);
    expect(view.application).toBe(application.name);
    expect(view.sources).toEqual([{ name: expect.any(String), lastSyncedAt: syncedAt }]);
    const records = await db().record.groupBy({ by: ["category"], where: { subjectId: subject.id, deletedAt: null }, _count: { _all: true } });
    expect(view.recordCounts).toEqual(
      receipt.categories.map((category) => ({ category, records: records.find((row) => row.category === category)?._count._all ?? 0 })),
    );
    expect(view.recordCounts!.some((count) => count.records > 0)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect(view.history.days).toEqual([
      {
        day: today,
        requests: 5,
        wholeRecordReads: 1,
        categories: [
          { category: "labs", reads: 3 },
          { category: "medications", reads: 1 },
        ],
        agentRequests: 3,
      },
    ]);
    expect(view.history.agents).toEqual([
      expect.objectContaining({ credentialId: sharing.credential.id, purpose: "Summarize current medications before the visit", categories: ["labs"], requests: 3, reads: [{ category: "labs", reads: 3 }] }),
    ]);
    // The JSON download carries the same view; it holds no record content.
    expect(JSON.stringify(view)).not.toMatch(/"content"|resourceType/);

    // Once sharing ends the application can read nothing; the history stays.
    await revokeReceipt(receipt.id, "patient");
    const ended = await patientViewByLink(token);
    expect(ended.recordCounts).toBeNull();
    expect(ended.history).toEqual(view.history);
  });

  it("an unknown link is not_found", async () => {
    await expect(patientViewByLink("not-a-token")).rejects.toMatchObject({ code: "not_found" });
  });
});
