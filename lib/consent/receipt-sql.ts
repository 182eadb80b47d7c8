import type pg from "pg";

export type ActiveReceiptRow = { id: string; categories: string[]; expiresAt: Date; grantedAt: Date };

/**
 * The subject's active, unexpired share receipt with the application in the environment, if any: run through pg
 * directly as a named statement, since every records request asks it (an ORM query would be compiled per call).
 * Times are timestamp(3) in UTC (Prisma's DateTime), selected as timestamptz so pg reads the right instant.
 */
export function activeReceipt(scope: { subjectId: string; applicationId: string; environment: string }, now: Date): pg.QueryConfig {
  return {
    name: "chartkey-active-receipt",
    text: `SELECT id, categories, "expiresAt" AT TIME ZONE 'UTC' AS "expiresAt", "grantedAt" AT TIME ZONE 'UTC' AS "grantedAt"
           FROM "ConsentReceipt"
           WHERE "subjectId" = $1 AND "applicationId" = $2 AND environment = $3::"Environment"
             AND status = 'active' AND "expiresAt" > $4::timestamp(3)
           LIMIT 1`,
    values: [scope.subjectId, scope.applicationId, scope.environment, now.toISOString()],
  };
}
