import { pgPool } from "@/lib/db";
import type { LifecycleCycle } from "@/lib/jobs";

/** How long the row of a finished export (no files left) is kept, for the application's history, before it is deleted. */
const FINISHED_ROWS_DAYS = 30;

/**
 * The lifecycle cycle of bulk exports: a completed or failed export whose files' time is up (1 hour after it
 * finished) becomes `expired` and its files are deleted, ; a cancelled export's files, deleted
 * by the cancellation already, are deleted again should a job have written one since; rows of exports finished
 * FINISHED_ROWS_DAYS ago go. Returns how many exports expired.
 */
export const expireFhirExports: LifecycleCycle = {
  name: "fhir-export-expiry",
  async run(now: Date) {
    const pool = pgPool();
    const { rowCount } = await pool.query(
      `UPDATE "FhirExport" SET "status" = 'expired' WHERE "status" IN ('completed', 'failed') AND "expiresAt" <= ($1::timestamptz AT TIME ZONE 'UTC')`,
      [now.toISOString()],
    );
    await pool.query(`DELETE FROM "FhirExportFile" f USING "FhirExport" e WHERE f."exportId" = e."id" AND e."status" IN ('cancelled', 'expired')`);
    await pool.query(`DELETE FROM "FhirExport" WHERE "status" IN ('cancelled', 'expired') AND "completedAt" < ($1::timestamptz AT TIME ZONE 'UTC') - make_interval(days => $2)`, [
      now.toISOString(),
      FINISHED_ROWS_DAYS,
    ]);
    return rowCount ?? 0;
  },
};
