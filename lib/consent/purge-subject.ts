import { recordAudit } from "@/lib/audit";
import { retentionDays } from "@/lib/config";
import { db, Prisma, withTransaction, type Tx } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import type { LifecycleCycle } from "@/lib/jobs";
import { BEFORE_PURGE_POLICY, revokeDueSourceTokens } from "./revoke-upstream-tokens";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Rows one purge transaction deletes at most: a subject with years of records is purged in many short transactions. */
export const PURGE_BATCH_ROWS = 1_000;
/** Subjects one run of the retention cycle purges; the rest wait for its next run. */
const SUBJECTS_PER_RUN = 50;

/**
 * What a purge deletes, in this order, each a table with the subject's id in `subjectId`: the delegated credentials
 * and the sources (with their encrypted SMART tokens) first, so nothing can read or import for the subject while its
 * records go; each source's imports before their source (the cascade would delete them uncounted); then the records
 * and the FHIR view's context resources (issue 52) and their change feed. A table added later with a `subjectId` column fails lib/consent/purge-subject.int.test.ts
 * until it is listed here or, holding no clinical content, among that test's kept tables.
 *
 * Kept: the subject row (its receipts and the audit trail name it), the receipts (status and times), the Connect
 * sessions (what was asked and granted), the change counters (an integer per category: purging them would restart
 * the subject's sequences at 1, and a cursor the application saved before would then silently skip the changes of a
 * later consent), the request log (no record contents; pruned after 30 days), events and the audit trail.
 */
export const PURGED_TABLES = ["AgentCredential", "SourceImport", "Source", "Record", "FhirContext", "RecordChange"] as const;
export type PurgedTable = (typeof PURGED_TABLES)[number];
export type PurgeCounts = Record<PurgedTable, number>;

export type PurgeOutcome = { status: "purged"; counts: PurgeCounts } | { status: "already_purged" } | { status: "active" };

const noRows = (): PurgeCounts => Object.fromEntries(PURGED_TABLES.map((table) => [table, 0])) as PurgeCounts;

/** A receipt's end: when it was revoked, else when it expired (an active receipt past its expiry has ended). */
const END_SQL = `LEAST(COALESCE(r."revokedAt", r."expiresAt"), r."expiresAt")`;
const NO_ACTIVE_RECEIPT_SQL = `NOT EXISTS (SELECT 1 FROM "ConsentReceipt" a WHERE a."subjectId" = r."subjectId" AND a.status = 'active' AND a."expiresAt" > $1)`;

/**
 * Subjects whose data is due for purging at `now`: no active receipt, and the newest receipt not yet purged ended
 * `days` days ago or earlier, or the patient asked for the deletion (a request whose purge was cut off). Each comes
 * with that receipt, which the purge marks and counts on.
 */
export async function subjectsDueForPurge(now: Date, days = retentionDays(), limit = SUBJECTS_PER_RUN): Promise<{ receiptId: string; subjectId: string }[]> {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  return db().$queryRawUnsafe<{ receiptId: string; subjectId: string }[]>(
    `SELECT "receiptId", "subjectId" FROM (
       SELECT DISTINCT ON (r."subjectId") r.id AS "receiptId", r."subjectId", ${END_SQL} AS "endedAt", r."deletionRequestedAt"
       FROM "ConsentReceipt" r
       WHERE r."purgedAt" IS NULL AND (r.status <> 'active' OR r."expiresAt" <= $1) AND ${NO_ACTIVE_RECEIPT_SQL}
       ORDER BY r."subjectId", "endedAt" DESC, r.id DESC
     ) newest
     WHERE "endedAt" <= $2 OR "deletionRequestedAt" IS NOT NULL
     ORDER BY "endedAt"
     LIMIT $3`,
    now,
    cutoff,
    limit,
  );
}

/**
 * Why a purge runs: the retention period passed, or the patient asked on their receipt page (the receipt's
 * `deletionRequestedAt`; the application then receives `subject.deleted`, stored in the purge's last transaction, so
 * it is sent exactly once, when the purge is done).
 */
export type PurgeReason = "retention" | "patient_request";

type PurgeOptions = { now?: Date; batchRows?: number; afterBatch?: (counts: PurgeCounts) => Promise<void> | void };

/**
 * Deletes the subject's data listed in PURGED_TABLES, a batch per transaction (at most `batchRows` rows of one
 * table), and marks the purge on `receiptId` and every other ended receipt of the subject not yet marked. Each batch
 * locks the receipt, checks the subject still has no active receipt (a patient who connected again keeps the new
 * data) and adds what it deleted to `purgeCounts`, so a purge cut off anywhere (a crash, a kill -9) is resumed by the
 * next call and still reports the whole count. The last transaction, finding nothing left, marks the receipts and
 * appends the `subject.purge` audit entry (the subject, its application and the rows per table; no clinical
 * content), and for a patient's request the `subject.deleted` event. Calling it again for a purged receipt does nothing.
 */
export async function purgeSubjectData(receiptId: string, options: PurgeOptions = {}): Promise<PurgeOutcome> {
  const batchRows = options.batchRows ?? PURGE_BATCH_ROWS;
  await revokeTokensBeforePurge(receiptId, options.now ?? new Date());
  for (;;) {
    const step = await withTransaction("ReadCommitted", (tx) => purgeBatch(tx, receiptId, batchRows, options.now ?? new Date()), { timeout: 60_000 });
    if (step.done) return step.outcome;
    await options.afterBatch?.(step.counts);
  }
}

/**
 * A patient's deletion (or a retention of 0 days) can come before the upstream revocation job's next run: the
 * subject's sources have their refresh tokens revoked at the health system first (lib/consent/revoke-upstream-tokens.ts,
 * one quick try, on the audit trail as `source.token_revocation`), since the purge then deletes them and no later
 * try is possible. A failure does not hold the deletion up; the audit entry tells the operator which health system
 * still holds a live grant.
 */
async function revokeTokensBeforePurge(receiptId: string, now: Date): Promise<void> {
  const receipt = await db().consentReceipt.findUnique({ where: { id: receiptId }, select: { subjectId: true, purgedAt: true } });
  if (!receipt || receipt.purgedAt) return;
  await revokeDueSourceTokens(now, { subjectId: receipt.subjectId, ignoreBackoff: true, policy: BEFORE_PURGE_POLICY });
}

type Step = { done: true; outcome: PurgeOutcome } | { done: false; counts: PurgeCounts };

async function purgeBatch(tx: Tx, receiptId: string, batchRows: number, now: Date): Promise<Step> {
  const [receipt] = await tx.$queryRaw<{ subjectId: string; applicationId: string; environment: "sandbox" | "live"; purgedAt: Date | null; purgeCounts: Partial<PurgeCounts> | null; deletionRequestedAt: Date | null }[]>`
    SELECT "subjectId", "applicationId", environment::text AS environment, "purgedAt", "purgeCounts", "deletionRequestedAt" FROM "ConsentReceipt" WHERE id = ${receiptId} FOR UPDATE`;
  if (!receipt) throw new Error(`no receipt ${receiptId}`);
  if (receipt.purgedAt) return { done: true, outcome: { status: "already_purged" } };
  const reason: PurgeReason = receipt.deletionRequestedAt ? "patient_request" : "retention";
  const active = await tx.consentReceipt.count({ where: { subjectId: receipt.subjectId, status: "active", expiresAt: { gt: now } } });
  if (active > 0) return { done: true, outcome: { status: "active" } };
  // The lock the records write path takes (lib/records/store): an import's transaction and a purge batch of the
  // same subject never interleave.
  await tx.$queryRaw`SELECT 1 FROM "Subject" WHERE id = ${receipt.subjectId} FOR UPDATE`;

  const counts = { ...noRows(), ...receipt.purgeCounts };
  for (const table of PURGED_TABLES) {
    const deleted = await tx.$executeRawUnsafe(
      `DELETE FROM "${table}" WHERE ctid = ANY (ARRAY(SELECT ctid FROM "${table}" WHERE "subjectId" = $1 LIMIT $2))`,
      receipt.subjectId,
      batchRows,
    );
    if (deleted === 0) continue;
    counts[table] += deleted;
    await tx.consentReceipt.update({ where: { id: receiptId }, data: { purgeCounts: counts } });
    return { done: false, counts };
  }

  await tx.consentReceipt.updateMany({
    where: { subjectId: receipt.subjectId, purgedAt: null, OR: [{ status: { not: "active" } }, { expiresAt: { lte: now } }] },
    data: { purgedAt: now },
  });
  await tx.consentReceipt.update({ where: { id: receiptId }, data: { purgeCounts: counts as Prisma.InputJsonObject } });
  await recordAudit(tx, {
    action: "subject.purge",
    actor: reason === "retention" ? { type: "system", label: "retention" } : { type: "anonymous", label: "patient (receipt link)" },
    applicationId: receipt.applicationId,
    targetType: "subject",
    targetId: receipt.subjectId,
    after: { receiptId, reason, ...(reason === "retention" ? { retentionDays: retentionDays() } : {}), ...counts },
  });
  if (reason === "patient_request") {
    await recordEvent(
      {
        applicationId: receipt.applicationId,
        environment: receipt.environment,
        type: "subject.deleted",
        data: { subject: receipt.subjectId, receiptId, deletedAt: now.toISOString(), reason: "patient" },
      },
      tx,
    );
  }
  return { done: true, outcome: { status: "purged", counts } };
}

/**
 * The retention cycle: purges each subject whose last receipt ended CHARTKEY_RETENTION_DAYS ago (docs/operations.md,
 * Retention). Returns how many subjects it purged.
 */
export const purgeEndedSubjects = {
  name: "purge-ended-subjects",
  run: async (now: Date) => {
    let purged = 0;
    for (const due of await subjectsDueForPurge(now)) {
      if ((await purgeSubjectData(due.receiptId, { now })).status === "purged") purged++;
    }
    return purged;
  },
} satisfies LifecycleCycle;
