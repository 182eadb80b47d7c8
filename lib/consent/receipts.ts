import { db, withTransaction, type Tx } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { newId } from "@/lib/ids";
import { metrics } from "@/lib/metrics";
import type { Category } from "@/lib/records";

/** Receipts last a year unless the session asks for less. */
export const DEFAULT_RECEIPT_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

export type RevocationReason = "patient" | "sandbox" | "superseded";

export type GrantInput = {
  applicationId: string;
  environment: "sandbox" | "live";
  subjectId: string;
  categories: readonly Category[];
  connectSessionId?: string | null;
  expiresAt?: Date;
  now?: Date;
};

/**
 * Records the patient's consent as a new active share receipt. A subject has at most one active receipt: a new one
 * supersedes the previous (revoked, reason `superseded`) in the same transaction.
 */
export async function grantReceipt(input: GrantInput, tx?: Tx) {
  const run = async (client: Tx) => {
    const now = input.now ?? new Date();
    const superseded = await client.consentReceipt.updateMany({
      where: { subjectId: input.subjectId, status: "active" },
      data: { status: "revoked", revokedAt: now, revokedReason: "superseded" },
    });
    const receipt = await client.consentReceipt.create({
      data: {
        id: newId("cr_"),
        applicationId: input.applicationId,
        environment: input.environment,
        subjectId: input.subjectId,
        connectSessionId: input.connectSessionId ?? null,
        categories: [...input.categories],
        status: "active",
        grantedAt: now,
        expiresAt: input.expiresAt ?? new Date(now.getTime() + DEFAULT_RECEIPT_DAYS * DAY_MS),
      },
    });
    // Counted when the statements ran: a surrounding transaction rolled back later still counted (rare).
    if (superseded.count > 0) metrics().consentRevocations.inc({ reason: "superseded" }, superseded.count);
    metrics().consentGrants.inc({ environment: input.environment });
    return receipt;
  };
  return tx ? run(tx) : withTransaction("ReadCommitted", run);
}

/** Ends an active receipt now; reads stop at once. Returns false if it was not active. */
export async function revokeReceipt(receiptId: string, reason: RevocationReason, now = new Date(), tx?: Tx): Promise<boolean> {
  const { count } = await (tx ?? db()).consentReceipt.updateMany({
    where: { id: receiptId, status: "active" },
    data: { status: "revoked", revokedAt: now, revokedReason: reason },
  });
  if (count === 1) metrics().consentRevocations.inc({ reason });
  return count === 1;
}

/**
 * Sets an active receipt's expiry to now (the sandbox's `consent.expire`). Reads stop at once; the lifecycle cycle
 * marks it `expired` on its next run.
 */
export async function expireReceiptNow(receiptId: string, now = new Date()): Promise<boolean> {
  const { count } = await db().consentReceipt.updateMany({ where: { id: receiptId, status: "active" }, data: { expiresAt: now } });
  return count === 1;
}

/**
 * Marks every active receipt whose expiry has passed as `expired` and stores `consent.expired` for each, in the
 * same transaction (a receipt is marked, and its event stored, exactly once even with several workers); returns how
 * many.
 */
export async function markExpiredReceipts(now = new Date()): Promise<number> {
  const due = await db().consentReceipt.findMany({
    where: { status: "active", expiresAt: { lte: now } },
    select: { id: true, applicationId: true, environment: true, subjectId: true, categories: true },
  });
  let marked = 0;
  for (const receipt of due) {
    // Conditional per receipt: a receipt revoked meanwhile, or marked by another worker, is not marked or announced twice.
    const one = await withTransaction("ReadCommitted", async (tx) => {
      const { count } = await tx.consentReceipt.updateMany({ where: { id: receipt.id, status: "active", expiresAt: { lte: now } }, data: { status: "expired", expiredAt: now } });
      if (count === 0) return 0;
      await recordEvent(
        {
          applicationId: receipt.applicationId,
          environment: receipt.environment,
          type: "consent.expired",
          data: { subject: receipt.subjectId, receiptId: receipt.id, categories: receipt.categories },
        },
        tx,
      );
      return 1;
    });
    if (one) metrics().consentExpiries.inc();
    marked += one;
  }
  return marked;
}

/** A receipt as the API reports it: its stored status, except that an active one past its expiry is expired. */
export function effectiveStatus(receipt: { status: "active" | "revoked" | "expired"; expiresAt: Date }, now = new Date()) {
  return receipt.status === "active" && receipt.expiresAt <= now ? "expired" : receipt.status;
}
