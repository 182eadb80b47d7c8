/** A subject's source as a snapshot presents it, with its latest completed import's report. */
export type SourceRow = {
  id: string;
  providerId: string;
  providerName: string;
  syncStatus: "pending" | "syncing" | "synced" | "partial" | "failed";
  lastSyncedAt: Date | null;
  /** The last import's failure (`<code>: <message>`), null after a success. */
  lastError: string | null;
  /** The latest completed import, for its fidelity report (null before one completes). */
  importId: string | null;
  importFinishedAt: Date | null;
  recordCounts: unknown;
  fidelity: unknown;
};

/**
 * The SQL of a subject's sources (`subject` is its placeholder) as one JSON array, in the order they were attached,
 * each with its provider's name and its latest completed import's report (a snapshot's `sources`): a column of the
 * snapshot's own statement, so a snapshot is one round trip to PostgreSQL, not two. Times are timestamptz, written
 * with their offset.
 */
export function subjectSourcesJson(subject: string): string {
  return `(SELECT COALESCE(json_agg(json_build_object(
              'id', s.id, 'providerId', s."providerId", 'providerName', p.name, 'syncStatus', s."syncStatus",
              'lastSyncedAt', s."lastSyncedAt" AT TIME ZONE 'UTC', 'lastError', s."lastError",
              'importId', i.id, 'importFinishedAt', i."finishedAt" AT TIME ZONE 'UTC', 'recordCounts', i."recordCounts", 'fidelity', i.fidelity
            ) ORDER BY s."createdAt" ASC, s.id ASC), '[]')
           FROM "Source" s JOIN "Provider" p ON p.id = s."providerId"
           LEFT JOIN LATERAL (
             SELECT id, "finishedAt", "recordCounts", fidelity FROM "SourceImport"
             WHERE "sourceId" = s.id AND status = 'completed'
             ORDER BY "startedAt" DESC LIMIT 1
           ) i ON true
           WHERE s."subjectId" = ${subject})`;
}

type SourceJson = Omit<SourceRow, "lastSyncedAt" | "importFinishedAt"> & { lastSyncedAt: string | null; importFinishedAt: string | null };

/** The sources of subjectSourcesJson's text, their times as Dates. */
export function parseSources(text: string): SourceRow[] {
  return (JSON.parse(text) as SourceJson[]).map((source) => ({
    ...source,
    lastSyncedAt: source.lastSyncedAt === null ? null : new Date(source.lastSyncedAt),
    importFinishedAt: source.importFinishedAt === null ? null : new Date(source.importFinishedAt),
  }));
}
