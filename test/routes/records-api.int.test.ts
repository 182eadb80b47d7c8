import { describe, expect, it } from "vitest";
import { expireReceiptNow, grantReceipt, markExpiredReceipts, revokeReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { applySourceFacts, CATEGORIES, type Category } from "@/lib/records";
import { newId } from "@/lib/ids";
import { bearer, createTestSubject } from "@/test/factories";
import { scenarioFacts, sharingSubject, TEST_SOURCE } from "@/test/records";
import { dispatchApiRequest } from "@/lib/routes";

const BASE = "http://localhost/api/v1";
type Json = Record<string, unknown> & { error?: { code: string } };

async function call(key: string, path: string) {
  const response = await dispatchApiRequest(new Request(`${BASE}${path}`, { headers: bearer(key) }));
  return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
}

const categoryPage = (key: string, subject: string, category: string, query = "") =>
  call(key, `/users/${subject}/records/${category}${query}`);
const changes = (key: string, subject: string, category: string, query = "") =>
  call(key, `/users/${subject}/records/${category}/changes${query}`);
const snapshot = (key: string, subject: string, query = "") => call(key, `/users/${subject}/records${query}`);

describe("GET /users", () => {
  it("lists subjects with an active receipt, newest first, paged by cursor or legacy offset", async () => {
    const { application, sandboxKey, subject: first } = await sharingSubject({ facts: false });
    const later = [];
    for (let index = 0; index < 3; index += 1) {
      const subject = await createTestSubject(application.id);
      await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs"], now: new Date(Date.now() + (index + 1) * 1000) });
      later.push(subject.id);
    }
    const revoked = await createTestSubject(application.id);
    const receipt = await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: revoked.id, categories: ["labs"] });
    await revokeReceipt(receipt.id, "patient");

    const all = await call(sandboxKey, "/users");
    expect(all.status).toBe(200);
    const ids = (all.body.data as { id: string }[]).map((user) => user.id);
    expect(ids).toEqual([...later].reverse().concat(first.id));

    const page1 = await call(sandboxKey, "/users?limit=2");
    expect(page1.body.hasMore).toBe(true);
    const page2 = await call(sandboxKey, `/users?limit=2&cursor=${page1.body.nextCursor}`);
    expect([...(page1.body.data as { id: string }[]), ...(page2.body.data as { id: string }[])].map((user) => user.id)).toEqual(ids);
    expect(page2.body).toMatchObject({ hasMore: false, nextCursor: null });
    const byOffset = await call(sandboxKey, "/users?limit=2&offset=2");
    expect((byOffset.body.data as { id: string }[]).map((user) => user.id)).toEqual(ids.slice(2));
  });

  it("never lists another application's or the other environment's subjects", async () => {
    const mine = await sharingSubject({ facts: false });
    const theirs = await sharingSubject({ facts: false });
    const listed = await call(mine.sandboxKey, "/users");
    expect((listed.body.data as { id: string }[]).map((user) => user.id)).toEqual([mine.subject.id]);
    await db().application.update({ where: { id: mine.application.id }, data: { productionEnabled: true } });
    const live = await call(mine.liveKey, "/users");
    expect(live.body.data).toEqual([]);
    expect(JSON.stringify(listed.body)).not.toContain(theirs.subject.id);
  });

  it("refuses bad pagination and foreign cursors", async () => {
    const { sandboxKey, subject } = await sharingSubject({ facts: false });
    expect((await call(sandboxKey, "/users?limit=0")).body.error?.code).toBe("invalid_pagination");
    expect((await call(sandboxKey, "/users?limit=101")).body.error?.code).toBe("invalid_pagination");
    expect((await call(sandboxKey, "/users?offset=-1")).body.error?.code).toBe("invalid_pagination");
    const records = await categoryPage(sandboxKey, subject.id, "labs", "?limit=1");
    const foreign = records.body.nextCursor as string;
    expect((await call(sandboxKey, `/users?cursor=${foreign}`)).body.error?.code).toBe("invalid_cursor");
  });
});

describe("GET /users/{subject}/records/{category}", () => {
  it("pages newest clinical time first, then id, with a change cursor", async () => {
    const { sandboxKey, subject } = await sharingSubject();
    const stored = await db().record.findMany({ where: { subjectId: subject.id, category: "labs", deletedAt: null }, orderBy: [{ sortAt: "desc" }, { id: "desc" }] });
    expect(stored.length).toBeGreaterThan(3);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await categoryPage(sandboxKey, subject.id, "labs", `?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      expect(page.body.meta).toMatchObject({ schemaVersion: 2, changeCursor: expect.any(String) });
      seen.push(...(page.body.data as { recordId: string }[]).map((record) => record.recordId));
      cursor = page.body.nextCursor as string | null;
      expect(page.body.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(stored.map((record) => record.id));
  });

  it("answers the spec's errors", async () => {
    const { sandboxKey, subject } = await sharingSubject({ allowlist: ["labs", "vitals", "medications"], granted: ["labs", "vitals", "allergies"] });
    const other = await sharingSubject();
    expect((await categoryPage(sandboxKey, subject.id, "nonsense")).body.error?.code).toBe("invalid_categories");
    expect((await categoryPage(sandboxKey, subject.id, "labs,vitals")).body.error?.code).toBe("invalid_categories");
    // Granted but outside the allowlist, and allowed but outside the receipt.
    const outsideAllowlist = await categoryPage(sandboxKey, subject.id, "allergies");
    expect([outsideAllowlist.status, outsideAllowlist.body.error?.code]).toEqual([403, "app_scope_exceeded"]);
    expect((await categoryPage(sandboxKey, subject.id, "medications")).body.error?.code).toBe("app_scope_exceeded");
    expect((await categoryPage(sandboxKey, subject.id, "labs", "?limit=500")).body.error?.code).toBe("invalid_pagination");
    // Another application's subject is invisible, and so is this application's subject to its live key.
    const foreign = await categoryPage(sandboxKey, other.subject.id, "labs");
    expect([foreign.status, foreign.body.error?.code]).toEqual([404, "not_found"]);
    await db().application.update({ where: { id: other.application.id }, data: { productionEnabled: true } });
    const otherEnvironment = await categoryPage(other.liveKey, other.subject.id, "labs");
    expect([otherEnvironment.status, otherEnvironment.body.error?.code]).toEqual([404, "not_found"]);
    expect((await snapshot(other.liveKey, other.subject.id)).status).toBe(404);
    expect((await changes(other.liveKey, other.subject.id, "labs", "?cursor=x")).status).toBe(404);

    const page = await categoryPage(sandboxKey, subject.id, "labs", "?limit=1");
    const next = page.body.nextCursor as string;
    expect((await categoryPage(sandboxKey, subject.id, "vitals", `?cursor=${next}`)).body.error?.code).toBe("invalid_cursor");
    const edited = `${next.slice(0, -2)}${next.endsWith("A") ? "B" : "A"}A`;
    expect((await categoryPage(sandboxKey, subject.id, "labs", `?cursor=${edited}`)).body.error?.code).toBe("invalid_cursor");
    const otherPage = await categoryPage(other.sandboxKey, other.subject.id, "labs", "?limit=1");
    expect((await categoryPage(sandboxKey, subject.id, "labs", `?cursor=${otherPage.body.nextCursor}`)).body.error?.code).toBe("invalid_cursor");
  });

  it("a revoked or expired receipt ends reads at once", async () => {
    const revoked = await sharingSubject();
    expect((await categoryPage(revoked.sandboxKey, revoked.subject.id, "labs")).status).toBe(200);
    await revokeReceipt(revoked.receipt.id, "patient");
    expect((await categoryPage(revoked.sandboxKey, revoked.subject.id, "labs")).status).toBe(404);
    expect((await snapshot(revoked.sandboxKey, revoked.subject.id)).status).toBe(404);

    const expired = await sharingSubject();
    await expireReceiptNow(expired.receipt.id);
    // Before the lifecycle cycle marks it, reads have already stopped.
    expect((await categoryPage(expired.sandboxKey, expired.subject.id, "labs")).status).toBe(404);
    expect(await markExpiredReceipts()).toBeGreaterThanOrEqual(1);
    const receipt = await call(expired.sandboxKey, `/consents/${expired.receipt.id}`);
    expect(receipt.body).toMatchObject({ status: "expired", receiptId: expired.receipt.id, subject: expired.subject.id });
  });
});

describe("GET /users/{subject}/records/{category}/changes", () => {
  it("replays changes after a page's cursor; an empty page still gives a cursor to poll with", async () => {
    const { sandboxKey, subject } = await sharingSubject();
    const page = await categoryPage(sandboxKey, subject.id, "labs");
    const start = (page.body.meta as { changeCursor: string }).changeCursor;
    const quiet = await changes(sandboxKey, subject.id, "labs", `?cursor=${start}`);
    expect(quiet.body).toMatchObject({ data: [], hasMore: false, nextCursor: expect.any(String) });

    const facts = scenarioFacts(subject.id);
    const labs = facts.filter((fact) => fact.category === "labs");
    const [dropped, ...kept] = labs;
    await applySourceFacts({ subjectId: subject.id, sourceId: TEST_SOURCE.sourceId, facts: facts.filter((fact) => fact !== dropped) });
    const feed = await changes(sandboxKey, subject.id, "labs", `?cursor=${quiet.body.nextCursor}`);
    expect(feed.body.data).toEqual([{ sequence: labs.length + 1, changeType: "delete", recordId: dropped!.record.recordId, record: null }]);
    expect(kept.length).toBeGreaterThan(0);

    // An upsert whose record was deleted later carries record null.
    await applySourceFacts({ subjectId: subject.id, sourceId: TEST_SOURCE.sourceId, facts });
    await applySourceFacts({ subjectId: subject.id, sourceId: TEST_SOURCE.sourceId, facts: facts.filter((fact) => fact !== dropped) });
    const replay = await changes(sandboxKey, subject.id, "labs", `?cursor=${feed.body.nextCursor}`);
    expect((replay.body.data as { changeType: string; record: unknown }[]).map((item) => [item.changeType, item.record])).toEqual([
      ["upsert", null],
      ["delete", null],
    ]);
  });

  it("needs a change cursor, and refuses a page cursor", async () => {
    const { sandboxKey, subject } = await sharingSubject();
    expect((await changes(sandboxKey, subject.id, "labs")).body.error?.code).toBe("invalid_cursor");
    const page = await categoryPage(sandboxKey, subject.id, "labs", "?limit=1");
    expect((await changes(sandboxKey, subject.id, "labs", `?cursor=${page.body.nextCursor}`)).body.error?.code).toBe("invalid_cursor");
  });
});

describe("GET /users/{subject}/records", () => {
  it("has a section per category the receipt and the allowlist cover, narrowed by categories", async () => {
    const { sandboxKey, subject } = await sharingSubject({ allowlist: ["labs", "vitals", "medications", "conditions"], granted: ["labs", "vitals", "allergies", "conditions"] });
    const full = await snapshot(sandboxKey, subject.id);
    expect(full.status).toBe(200);
    expect(Object.keys(full.body.sections as object)).toEqual(["conditions", "labs", "vitals"]);
    expect(full.body).toMatchObject({ subject: subject.id, meta: { schemaVersion: 2 }, consent: { status: "active" } });
    const labs = (full.body.sections as Record<Category, { records: unknown[]; hasMore: boolean; changeCursor: string }>).labs;
    expect(labs.records.length).toBe(await db().record.count({ where: { subjectId: subject.id, category: "labs", deletedAt: null } }));
    expect((await changes(sandboxKey, subject.id, "labs", `?cursor=${labs.changeCursor}`)).status).toBe(200);

    const narrowed = await snapshot(sandboxKey, subject.id, "?categories=labs,medications");
    expect(Object.keys(narrowed.body.sections as object)).toEqual(["labs"]);
    expect((await snapshot(sandboxKey, subject.id, "?categories=labs,unknown")).body.error?.code).toBe("invalid_categories");
  });

  it("lists the subject's sources in the order they were attached, read in the statement of its sections", async () => {
    const { sandboxKey, subject } = await sharingSubject({ granted: ["labs", "vitals"] });
    const provider = (name: string) =>
      db().provider.create({ data: { id: newId("prov_"), environment: "sandbox", name, fhirBaseUrl: "https://ehr.example/fhir", authorizeUrl: "https://ehr.example/authorize", tokenUrl: "https://ehr.example/token", clientId: "client", clientSecretEncrypted: "unused" } });
    const [first, second] = [await provider("First Health"), await provider("Second Clinic")];
    const attached = new Date("2026-01-02T03:04:05.678Z");
    const source = (providerId: string, createdAt: Date, syncStatus: "synced" | "failed", lastSyncedAt: Date | null) =>
      db().source.create({ data: { id: newId("src_"), patientId: subject.patientId, subjectId: subject.id, providerId, createdAt, syncStatus, lastSyncedAt, connected: true } });
    // Created out of order: the answer follows when each was attached.
    const later = await source(second.id, new Date(attached.getTime() + 1000), "failed", null);
    const earlier = await source(first.id, attached, "synced", new Date("2026-03-04T05:06:07.891Z"));
    const finishedAt = new Date("2026-03-04T05:06:07.123Z");
    await db().sourceImport.create({ data: { id: newId("imp_"), sourceId: earlier.id, subjectId: subject.id, status: "completed", recordCounts: { labs: 4, vitals: 2, allergies: 9 }, fidelity: { context: { Encounter: 3 } }, startedAt: attached, finishedAt } });

    const read = await snapshot(sandboxKey, subject.id);
    expect(read.status).toBe(200);
    const sources = read.body.sources as { sourceId: string; providerName: string; status: string; lastSyncedAt: string | null; fidelity: { importId: string; finishedAt: string; recordCounts: Record<string, number> } | null }[];
    expect(sources.map(({ sourceId, providerName, status, lastSyncedAt }) => ({ sourceId, providerName, status, lastSyncedAt }))).toEqual([
      { sourceId: earlier.id, providerName: "First Health", status: "synced", lastSyncedAt: "2026-03-04T05:06:07.891Z" },
      { sourceId: later.id, providerName: "Second Clinic", status: "failed", lastSyncedAt: null },
    ]);
    // The report counts only the categories this read may see (allergies is not granted).
    expect(sources[0]!.fidelity).toMatchObject({ finishedAt: finishedAt.toISOString(), records: { labs: 4, vitals: 2, allergies: 0 }, context: [{ resourceType: "Encounter", count: 3 }] });
    expect(sources[1]!.fidelity).toBeNull();
    expect(read.body).toMatchObject({ syncStatus: "partial", warnings: [{ code: "source_unavailable", sourceId: later.id }] });
    // A subject with no receipt for this key: 404, and nothing of its sources.
    const stranger = await sharingSubject({ facts: false });
    const refused = await snapshot(stranger.sandboxKey, subject.id);
    expect([refused.status, refused.body.error?.code]).toEqual([404, "not_found"]);
    expect(JSON.stringify(refused.body)).not.toContain("First Health");
  });
});

describe("GET /consents/{receiptId}", () => {
  it("shows the receipt to its application only", async () => {
    const mine = await sharingSubject({ facts: false });
    const theirs = await sharingSubject({ facts: false });
    const shown = await call(mine.sandboxKey, `/consents/${mine.receipt.id}`);
    expect(shown.body).toMatchObject({ object: "consent_receipt", status: "active", categories: [...CATEGORIES] });
    // A receipt given outside Connect has no patient page to offer.
    expect(shown.body.receiptUrl).toBeNull();
    const hidden = await call(mine.sandboxKey, `/consents/${theirs.receipt.id}`);
    expect([hidden.status, hidden.body.error?.code]).toEqual([404, "not_found"]);
  });
});
