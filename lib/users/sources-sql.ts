import type pg from "pg";

export type SourceRow = {
  id: string;
  providerId: string;
  providerName: string;
  syncStatus: "pending" | "syncing" | "synced" | "partial" | "failed";
  lastSyncedAt: Date | null;
  /** The latest completed import, for its fidelity report (null before one completes). */
  importId: string | null;
  importFinishedAt: Date | null;
  recordCounts: unknown;
  fidelity: unknown;
};

/**
 * A subject's sources in the order they were attached, with their provider's name and their latest completed
 * import's report (a snapshot's `sources`).
 */
export function subjectSources(subjectId: string): pg.QueryConfig<[string]> {
  return {
    name: "chartkey-subject-sources",
    text: `SELECT s.id, s."providerId", p.name AS "providerName", s."syncStatus"::text AS "syncStatus",
                  s."lastSyncedAt" AT TIME ZONE 'UTC' AS "lastSyncedAt",
                  i.id AS "importId", i."finishedAt" AT TIME ZONE 'UTC' AS "importFinishedAt", i."recordCounts", i.fidelity
           FROM "Source" s JOIN "Provider" p ON p.id = s."providerId"
           LEFT JOIN LATERAL (
             SELECT id, "finishedAt", "recordCounts", fidelity FROM "SourceImport"
             WHERE "sourceId" = s.id AND status = 'completed'
             ORDER BY "startedAt" DESC LIMIT 1
           ) i ON true
           WHERE s."subjectId" = $1
           ORDER BY s."createdAt" ASC`,
    values: [subjectId],
  };
}
