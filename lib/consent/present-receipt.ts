import { effectiveStatus } from "./receipts";

type StoredReceipt = {
  id: string;
  subjectId: string;
  categories: string[];
  status: "active" | "revoked" | "expired";
  grantedAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  expiredAt: Date | null;
};

/** GET /consents/{receiptId}: the receipt with its status as of now. */
export function presentReceipt(receipt: StoredReceipt, now = new Date()) {
  const status = effectiveStatus(receipt, now);
  return {
    object: "consent_receipt" as const,
    receiptId: receipt.id,
    subject: receipt.subjectId,
    status,
    categories: receipt.categories,
    grantedAt: receipt.grantedAt.toISOString(),
    expiresAt: receipt.expiresAt.toISOString(),
    revokedAt: receipt.revokedAt?.toISOString() ?? null,
    expiredAt: receipt.expiredAt?.toISOString() ?? (status === "expired" ? receipt.expiresAt.toISOString() : null),
  };
}
