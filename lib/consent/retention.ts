import { retentionDays } from "@/lib/config";

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the dashboard says of a subject's data under the retention policy (docs/operations.md, Retention). */
export type RetentionState =
  | { kind: "sharing" }
  | { kind: "kept"; purgeAfter: Date; days: number }
  | { kind: "deleting"; requestedAt: Date }
  | { kind: "purged"; purgedAt: Date; onRequest: boolean };

type ReceiptTimes = { status: "active" | "revoked" | "expired"; expiresAt: Date; revokedAt: Date | null; purgedAt: Date | null; deletionRequestedAt: Date | null };

/**
 * A subject's latest receipt read against the retention policy: while it is active the data is kept; once it ended,
 * the purge is due `days` after its end (when it was revoked, else when it expired), at once when the patient asked
 * for the deletion; once done, when it happened. The same rule as the purge cycle's (lib/consent/purge-subject.ts).
 */
export function retentionState(receipt: ReceiptTimes, days = retentionDays(), now = new Date()): RetentionState {
  if (receipt.purgedAt) return { kind: "purged", purgedAt: receipt.purgedAt, onRequest: receipt.deletionRequestedAt !== null };
  if (receipt.status === "active" && receipt.expiresAt > now) return { kind: "sharing" };
  if (receipt.deletionRequestedAt) return { kind: "deleting", requestedAt: receipt.deletionRequestedAt };
  const end = receipt.revokedAt && receipt.revokedAt < receipt.expiresAt ? receipt.revokedAt : receipt.expiresAt;
  return { kind: "kept", purgeAfter: new Date(end.getTime() + days * DAY_MS), days };
}
