import { recordAudit } from "@/lib/audit";
import { purgeSubjectData } from "@/lib/consent";
import { db, withTransaction } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { receiptLink, revokeAsPatientIn } from "./receipt-by-link";

/**
 * What the receipt page says about deleting Chartkey's copy: whether it may be asked for here (this link's receipt is
 * the subject's newest: an older link's page cannot delete what a later consent shares), asked, and done.
 */
export type DeletionState = { available: boolean; requestedAt: Date | null; purgedAt: Date | null };

async function linkedReceipt(token: string) {
  const receipt = await db().consentReceipt.findFirst({ where: receiptLink(token) });
  if (!receipt) throw new ApiError("not_found", "This link is not valid.");
  const newer = await db().consentReceipt.count({ where: { subjectId: receipt.subjectId, grantedAt: { gt: receipt.grantedAt } } });
  return { receipt, newest: newer === 0 };
}

export async function deletionByLink(token: string): Promise<DeletionState> {
  const { receipt, newest } = await linkedReceipt(token);
  return { available: newest && receipt.purgedAt === null, requestedAt: receipt.deletionRequestedAt, purgedAt: receipt.purgedAt };
}

/**
 * The patient asks, on their receipt page, for Chartkey's copy to be deleted. One transaction stops sharing if the
 * receipt is still active (`consent.revoked`, as revoking there does), records the request on the receipt and on
 * the audit trail; the purge then runs at once (lib/consent/purge-subject.ts: the subject's records, change feed,
 * sources and their tokens, imports and delegated credentials) and its last transaction stores `subject.deleted` for
 * the application. A purge cut off here is finished by the retention cycle's next run, whatever the retention
 * period. Asking again changes nothing. Returns when the copy was deleted, or null when it is not this link's to
 * delete (a later receipt of the same subject exists).
 */
export async function deleteCopyByLink(token: string, now = new Date()): Promise<Date | null> {
  const { receipt, newest } = await linkedReceipt(token);
  if (receipt.purgedAt) return receipt.purgedAt;
  if (!newest) return null;
  await withTransaction("ReadCommitted", async (tx) => {
    await revokeAsPatientIn(tx, receipt, now);
    const { count } = await tx.consentReceipt.updateMany({ where: { id: receipt.id, deletionRequestedAt: null }, data: { deletionRequestedAt: now } });
    if (count === 1) {
      await recordAudit(tx, {
        action: "subject.deletion_request",
        actor: { type: "anonymous", label: "patient (receipt link)" },
        applicationId: receipt.applicationId,
        targetType: "subject",
        targetId: receipt.subjectId,
        after: { receiptId: receipt.id, requestedAt: now },
      });
    }
  });
  const outcome = await purgeSubjectData(receipt.id, { now });
  if (outcome.status === "active") return null;
  return (await db().consentReceipt.findUniqueOrThrow({ where: { id: receipt.id }, select: { purgedAt: true } })).purgedAt;
}
