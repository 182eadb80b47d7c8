import type pg from "pg";

export type SourceRow = { id: string; providerId: string; providerName: string; syncStatus: "pending" | "syncing" | "synced" | "partial" | "failed"; lastSyncedAt: Date | null };

/** A subject's sources in the order they were attached, with their provider's name (a snapshot's `sources`). */
export function subjectSources(subjectId: string): pg.QueryConfig<[string]> {
  return {
    name: "chartkey-subject-sources",
    text: `SELECT s.id, s."providerId", p.name AS "providerName", s."syncStatus"::text AS "syncStatus",
                  s."lastSyncedAt" AT TIME ZONE 'UTC' AS "lastSyncedAt"
           FROM "Source" s JOIN "Provider" p ON p.id = s."providerId"
           WHERE s."subjectId" = $1
           ORDER BY s."createdAt" ASC`,
    values: [subjectId],
  };
}
