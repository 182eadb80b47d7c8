import { disclosureHistory, FHIR_EVERYTHING_ROUTE, FHIR_READ_ROUTES, RECORD_READ_ROUTES, WHOLE_RECORD_ROUTE, type DisclosureHistory, type ReadGroup } from "@/lib/consent";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { REQUEST_LOG_RETENTION_DAYS } from "@/lib/jobs";
import { receiptLink } from "./receipt-by-link";

/**
 * The patient's own view on the receipt page (issue 53, point 4), for the subject of the link's receipt: the health
 * systems shared from, how many records the application can read per category, and the disclosure history.
 */
export type PatientView = {
  application: string;
  subject: string;
  /** The health systems the patient connected, and when each was last read; empty once Chartkey's copy is deleted. */
  sources: { name: string; lastSyncedAt: Date | null }[];
  /** Records per category the application can read now (the consent's categories its allowlist also holds); null once sharing ended. */
  recordCounts: { category: string; records: number }[] | null;
  /** How far back the history reaches: the request log is kept this many days. */
  historyDays: number;
  history: DisclosureHistory;
  generatedAt: Date;
};

/**
 * Reads the view for a receipt link (404 `not_found` for an unknown one). The history covers every receipt of the
 * subject (a patient who consented again sees what was read before too), from the request log, grouped in SQL by UTC
 * day, operation, category and credential, so a subject read every minute for a month is still one small query.
 */
export async function patientViewByLink(token: string, now = new Date()): Promise<PatientView> {
  const receipt = await db().consentReceipt.findFirst({
    where: receiptLink(token),
    select: { subjectId: true, applicationId: true, categories: true, status: true, expiresAt: true, application: { select: { name: true, categoryAllowlist: true } } },
  });
  if (!receipt) throw new ApiError("not_found", "This link is not valid.");
  const active = receipt.status === "active" && receipt.expiresAt > now;
  const readable = receipt.categories.filter((category) => receipt.application.categoryAllowlist.includes(category));

  const [sources, counts, groups, credentials] = await Promise.all([
    db().source.findMany({ where: { subjectId: receipt.subjectId }, select: { provider: { select: { name: true } }, lastSyncedAt: true }, orderBy: { createdAt: "asc" } }),
    active
      ? db().record.groupBy({ by: ["category"], where: { subjectId: receipt.subjectId, deletedAt: null, category: { in: readable } }, _count: { _all: true } })
      : Promise.resolve(null),
    db().$queryRaw<ReadGroup[]>`
      SELECT to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, route,
             CASE WHEN route = ${WHOLE_RECORD_ROUTE} OR route = ${FHIR_EVERYTHING_ROUTE} THEN NULL
                  WHEN route = ANY(${[...FHIR_READ_ROUTES]}) THEN NULLIF(split_part(split_part(path, '/fhir/', 2), '/', 1), '')
                  ELSE NULLIF(split_part(split_part(path, '/records/', 2), '/', 1), '') END AS category,
             "agentCredentialId", count(*)::int AS count
      FROM "RequestLog"
      WHERE "applicationId" = ${receipt.applicationId} AND "subjectId" = ${receipt.subjectId} AND status >= 200 AND status < 300
        AND route = ANY(${[...RECORD_READ_ROUTES]})
      GROUP BY 1, 2, 3, 4`,
    db().agentCredential.findMany({ where: { subjectId: receipt.subjectId }, select: { id: true, purpose: true, categories: true, createdAt: true, expiresAt: true, revokedAt: true } }),
  ]);
  return {
    application: receipt.application.name,
    subject: receipt.subjectId,
    sources: sources.map((source) => ({ name: source.provider.name, lastSyncedAt: source.lastSyncedAt })),
    recordCounts: counts
      ? readable.map((category) => ({ category, records: counts.find((count) => count.category === category)?._count._all ?? 0 }))
      : null,
    historyDays: REQUEST_LOG_RETENTION_DAYS,
    history: disclosureHistory(groups, credentials),
    generatedAt: now,
  };
}
