import { effectiveStatus, revokeReceipt } from "@/lib/consent";
import { db, withTransaction, type Tx } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { ApiError } from "@/lib/http";
import { linkTokenHash } from "./link-tokens";

/** The receipt a link's token opens: made under the current CHARTKEY_SECRET or before a rotation. */
export function receiptLink(token: string) {
  const hash = linkTokenHash(token);
  return { OR: [{ patientTokenHash: hash }, { earlierPatientTokenHashes: { has: hash } }] };
}

/** What the patient's private receipt page shows: what they share, with whom, until when. */
export async function receiptByLink(token: string, now = new Date()) {
  const receipt = await db().consentReceipt.findFirst({
    where: receiptLink(token),
    include: { application: { select: { name: true } } },
  });
  if (!receipt) throw new ApiError("not_found", "This link is not valid.");
  return {
    id: receipt.id,
    applicationName: receipt.application.name,
    categories: receipt.categories,
    status: effectiveStatus(receipt, now),
    grantedAt: receipt.grantedAt,
    expiresAt: receipt.expiresAt,
    revokedAt: receipt.revokedAt,
  };
}

/** The patient revokes from their receipt page: reads stop at once and `consent.revoked` is stored. */
export async function revokeByLink(token: string, now = new Date()): Promise<boolean> {
  const receipt = await db().consentReceipt.findFirst({ where: receiptLink(token) });
  if (!receipt) throw new ApiError("not_found", "This link is not valid.");
  return withTransaction("ReadCommitted", (tx) => revokeAsPatientIn(tx, receipt, now));
}

type RevocableReceipt = { id: string; applicationId: string; environment: "sandbox" | "live"; subjectId: string; categories: string[] };

/**
 * Revokes the receipt as its patient inside `tx` and stores `consent.revoked` with it; false (nothing stored) when it
 * was no longer active. The receipt page's stop and its delete both revoke through it.
 */
export async function revokeAsPatientIn(tx: Tx, receipt: RevocableReceipt, now: Date): Promise<boolean> {
  if (!(await revokeReceipt(receipt.id, "patient", now, tx))) return false;
  await recordEvent(
    {
      applicationId: receipt.applicationId,
      environment: receipt.environment,
      type: "consent.revoked",
      data: { subject: receipt.subjectId, receiptId: receipt.id, categories: receipt.categories, reason: "patient" },
    },
    tx,
  );
  return true;
}
