import { afterEach, describe, expect, it } from "vitest";
import { grantReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { runLifecycle } from "@/lib/jobs";
import { LIFECYCLE_CYCLES } from "@/scripts/platform-jobs";
import { sharingSubject } from "@/test/records";
import { deleteCopyByLink, deletionByLink } from "./delete-by-link";
import { linkToken, linkTokenHash } from "./link-tokens";

/** The patient's link to a receipt, as completing a Connect session hands it out. */
async function receiptLink(receiptId: string) {
  const token = linkToken("receipt", receiptId);
  await db().consentReceipt.update({ where: { id: receiptId }, data: { patientTokenHash: linkTokenHash(token) } });
  return token;
}

const events = (applicationId: string) => db().event.findMany({ where: { applicationId }, orderBy: { createdAt: "asc" }, select: { type: true, data: true } });

const previousRetention = process.env.CHARTKEY_RETENTION_DAYS;
afterEach(() => {
  if (previousRetention === undefined) delete process.env.CHARTKEY_RETENTION_DAYS;
  else process.env.CHARTKEY_RETENTION_DAYS = previousRetention;
});

describe("deleting Chartkey's copy on the patient's request", () => {
  it("stops sharing, purges at once, tells the application subject.deleted once, and says when", async () => {
    const { application, subject, receipt } = await sharingSubject();
    const other = await sharingSubject();
    const token = await receiptLink(receipt.id);
    expect(await deletionByLink(token)).toEqual({ available: true, requestedAt: null, purgedAt: null });
    expect(await db().record.count({ where: { subjectId: subject.id } })).toBeGreaterThan(0);

    const deletedAt = await deleteCopyByLink(token);
    expect(deletedAt).toBeInstanceOf(Date);
    expect(await db().record.count({ where: { subjectId: subject.id } })).toBe(0);
    expect(await db().recordChange.count({ where: { subjectId: subject.id } })).toBe(0);
    expect(await db().record.count({ where: { subjectId: other.subject.id } })).toBeGreaterThan(0);
    expect(await db().consentReceipt.findUniqueOrThrow({ where: { id: receipt.id } })).toMatchObject({ status: "revoked", revokedReason: "patient", deletionRequestedAt: expect.any(Date), purgedAt: deletedAt });
    expect(await deletionByLink(token)).toEqual({ available: false, requestedAt: expect.any(Date), purgedAt: deletedAt });

    expect((await events(application.id)).map((event) => event.type)).toEqual(["consent.revoked", "subject.deleted"]);
    expect((await events(application.id))[1]!.data).toEqual({ subject: subject.id, receiptId: receipt.id, deletedAt: deletedAt!.toISOString(), reason: "patient" });
    const audit = await db().auditEntry.findMany({ where: { targetId: subject.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((entry) => entry.action)).toEqual(["subject.deletion_request", "subject.purge"]);
    expect(audit[1]).toMatchObject({ actorType: "anonymous", actorLabel: "patient (receipt link)", applicationId: application.id, after: { receiptId: receipt.id, reason: "patient_request" } });

    // Asked again (a second tap, a reload of the form): the same answer, nothing new.
    expect(await deleteCopyByLink(token)).toEqual(deletedAt);
    expect(await events(application.id)).toHaveLength(2);
    expect(await db().auditEntry.count({ where: { targetId: subject.id } })).toBe(2);
  });

  it("an older link of a subject that consented again cannot delete what the newer consent shares", async () => {
    const { application, subject, receipt } = await sharingSubject();
    const token = await receiptLink(receipt.id);
    await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs"] });
    expect(await deletionByLink(token)).toEqual({ available: false, requestedAt: null, purgedAt: null });
    expect(await deleteCopyByLink(token)).toBeNull();
    expect(await db().record.count({ where: { subjectId: subject.id } })).toBeGreaterThan(0);
  });

  it("a request whose purge was cut off is finished by the next lifecycle run, whatever the retention period", async () => {
    const { application, subject, receipt } = await sharingSubject();
    // As deleteCopyByLink's first transaction leaves it when the process dies before the purge.
    await db().consentReceipt.update({ where: { id: receipt.id }, data: { status: "revoked", revokedAt: new Date(), revokedReason: "patient", deletionRequestedAt: new Date() } });
    process.env.CHARTKEY_RETENTION_DAYS = "365";
    expect(await runLifecycle(LIFECYCLE_CYCLES)).toContainEqual({ name: "purge-ended-subjects", affected: 1 });
    expect(await db().record.count({ where: { subjectId: subject.id } })).toBe(0);
    expect((await events(application.id)).map((event) => event.type)).toEqual(["subject.deleted"]);
  });
});
