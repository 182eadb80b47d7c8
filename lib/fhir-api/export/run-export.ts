import type PgBoss from "pg-boss";
import { pgPool } from "@/lib/db";
import { defineJob } from "@/lib/jobs";
import { CATEGORIES, type Category } from "@/lib/records";
import { servedResource } from "../read-resources";
import { coveredCategories } from "../served-types";
import { deleteExportFiles, exportFiles, FILE_BYTES, NdjsonFiles } from "./ndjson-files";

/** The pg-boss queue of export jobs. */
export const FHIR_EXPORT_QUEUE = "fhir-export";
/** How long a completed export's files are kept before the lifecycle job deletes them. */
export const EXPORT_FILES_TTL_MS = 60 * 60 * 1000;
/** Rows read per query: the export streams each subject's resources in batches of this many (keyset on id). */
const BATCH = 500;
const SUBJECT_BATCH = 200;

type ExportRow = { id: string; applicationId: string; environment: string; status: string; types: string[]; since: Date | null };
type RecordRow = { id: string; resource: string; version: number; updatedAt: Date; sources: never; type: string };
type ContextRow = { id: string; resource: string; version: number; updatedAt: Date; type: string; sourceId: string; sourceName: string | null };

/** Test seams: a smaller file size, and a hook run before each subject is written (a revocation mid-export). */
export type RunExportOptions = { fileBytes?: number; beforeSubject?: (subjectId: string) => Promise<void> };

class Cancelled extends Error {}

/**
 * Runs one export to its end: every subject of the application and environment with an active receipt when the
 * export starts, in id order, each written only if its consent still covers something when its turn comes (the
 * receipt active and unexpired, its categories narrowed by the application's allowlist, read again per subject), so a
 * revocation during the export removes that subject from what is still to be written. Resources are read in batches
 * and written to ndjson files as they come (bounded memory). A rerun after a crash starts over: the files a failed
 * attempt wrote are deleted first. A cancelled export stops at the next subject and its files are deleted.
 */
export async function runFhirExport(exportId: string, options: RunExportOptions = {}): Promise<void> {
  const pool = pgPool();
  const started = await pool.query<ExportRow>(
    `UPDATE "FhirExport" SET "status" = 'running', "subjectsDone" = 0, "subjectsSkipped" = 0, "resourcesWritten" = 0,
       "subjectsTotal" = (SELECT count(*)::int FROM "Subject" s WHERE s."applicationId" = e."applicationId" AND s."environment" = e."environment" AND ${activeReceiptExists("s")})
     FROM (SELECT * FROM "FhirExport" WHERE "id" = $1 AND "status" IN ('accepted', 'running') FOR UPDATE) e
     WHERE "FhirExport"."id" = e."id"
     RETURNING "FhirExport"."id", "FhirExport"."applicationId", "FhirExport"."environment"::text, "FhirExport"."status"::text, "FhirExport"."types", "FhirExport"."since" AT TIME ZONE 'UTC' AS "since"`,
    [exportId],
  );
  const job = started.rows[0];
  if (!job) return; // cancelled, expired or done: nothing to do
  await deleteExportFiles(exportId);
  const files = new NdjsonFiles(exportId, options.fileBytes ?? FILE_BYTES);
  try {
    let after = "";
    let done = 0;
    let skipped = 0;
    let written = 0;
    for (;;) {
      const { rows: subjects } = await pool.query<{ id: string }>(
        `SELECT s."id" FROM "Subject" s WHERE s."applicationId" = $1 AND s."environment" = $2::"Environment" AND s."id" > $3 AND ${activeReceiptExists("s")}
         ORDER BY s."id" LIMIT ${SUBJECT_BATCH}`,
        [job.applicationId, job.environment, after],
      );
      if (subjects.length === 0) break;
      for (const { id: subjectId } of subjects) {
        after = subjectId;
        await options.beforeSubject?.(subjectId);
        const categories = await currentCategories(job, subjectId);
        const types = job.types.filter((type) => coveredCategories(type, categories).length > 0);
        if (types.length === 0) skipped += 1;
        else written += await writeSubject(files, subjectId, categories, types, job.since);
        done += 1;
        const progress = await pool.query(
          `UPDATE "FhirExport" SET "subjectsDone" = $2, "subjectsSkipped" = $3, "resourcesWritten" = $4 WHERE "id" = $1 AND "status" = 'running'`,
          [exportId, done, skipped, written],
        );
        if (progress.rowCount === 0) throw new Cancelled();
      }
    }
    await files.finish();
    const manifest = await exportFiles(exportId);
    const completed = await pool.query(
      `UPDATE "FhirExport" SET "status" = 'completed', "manifest" = $2::jsonb, "completedAt" = now() AT TIME ZONE 'UTC',
         "expiresAt" = (now() AT TIME ZONE 'UTC') + make_interval(secs => $3)
       WHERE "id" = $1 AND "status" = 'running'`,
      [exportId, JSON.stringify(manifest), EXPORT_FILES_TTL_MS / 1000],
    );
    if (completed.rowCount === 0) throw new Cancelled();
  } catch (error) {
    // Cancelled (or a chunk whose file the cancellation deleted): whatever this run wrote goes too.
    if (error instanceof Cancelled || (await exportStatus(exportId)) === "cancelled") {
      await deleteExportFiles(exportId);
      return;
    }
    throw error;
  }
}

/** An active, unexpired receipt of `alias`'s subject with the export's application and environment. */
function activeReceiptExists(alias: string): string {
  return `EXISTS (SELECT 1 FROM "ConsentReceipt" r WHERE r."subjectId" = ${alias}."id" AND r."status" = 'active' AND r."expiresAt" > (now() AT TIME ZONE 'UTC'))`;
}

/** The categories the export may write of the subject now: its active receipt's, those the application's allowlist holds. */
async function currentCategories(job: ExportRow, subjectId: string): Promise<Category[]> {
  const { rows } = await pgPool().query<{ categories: string[]; allowlist: string[] }>(
    `SELECT r."categories", a."categoryAllowlist" AS "allowlist"
     FROM "ConsentReceipt" r JOIN "Application" a ON a."id" = r."applicationId"
     WHERE r."subjectId" = $1 AND r."applicationId" = $2 AND r."environment" = $3::"Environment" AND r."status" = 'active'
       AND r."expiresAt" > (now() AT TIME ZONE 'UTC') AND a."status" <> 'suspended'
     LIMIT 1`,
    [subjectId, job.applicationId, job.environment],
  );
  const receipt = rows[0];
  if (!receipt) return [];
  return CATEGORIES.filter((category) => receipt.categories.includes(category) && receipt.allowlist.includes(category));
}

/**
 * Writes the subject's resources of `types` its categories cover, as the FHIR API serves them (the same ids, meta and
 * Patient), in batches: records (with `_since`, only those the change feed names as changed since), then context
 * resources (with `_since`, those whose stored version changed since). Returns how many it wrote.
 */
async function writeSubject(files: NdjsonFiles, subjectId: string, categories: Category[], types: string[], since: Date | null): Promise<number> {
  const pool = pgPool();
  let written = 0;
  const changed = since
    ? `AND r."id" IN (SELECT c."recordId" FROM "RecordChange" c WHERE c."subjectId" = $1 AND c."createdAt" >= ($5::timestamptz AT TIME ZONE 'UTC'))`
    : "AND $5::timestamptz IS NULL";
  let after = "";
  for (;;) {
    const { rows } = await pool.query<RecordRow>(
      `SELECT r."id", r."resource"::text AS "resource", r."version", r."updatedAt" AT TIME ZONE 'UTC' AS "updatedAt", r."sources", r."resource"->>'resourceType' AS "type"
       FROM "Record" r
       WHERE r."subjectId" = $1 AND r."deletedAt" IS NULL AND r."resource" IS NOT NULL AND r."category" = ANY($2::text[])
         AND r."resource"->>'resourceType' = ANY($3::text[]) AND r."id" > $4
         AND (r."category" <> 'demographics' OR r."id" = (
           SELECT min(d."id") FROM "Record" d WHERE d."subjectId" = $1 AND d."category" = 'demographics' AND d."deletedAt" IS NULL AND d."resource" IS NOT NULL))
         ${changed}
       ORDER BY r."id" LIMIT ${BATCH}`,
      [subjectId, categories, types, after, since?.toISOString() ?? null],
    );
    for (const row of rows) {
      await files.write(row.type, servedResource({ ...row, sourceId: null, sourceName: null }));
      written += 1;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  after = "";
  for (;;) {
    const { rows } = await pool.query<ContextRow>(
      `SELECT c."id", c."resource"::text AS "resource", c."version", c."updatedAt" AT TIME ZONE 'UTC' AS "updatedAt", c."resourceType" AS "type", c."sourceId",
              (SELECT p."name" FROM "Source" so JOIN "Provider" p ON p."id" = so."providerId" WHERE so."id" = c."sourceId") AS "sourceName"
       FROM "FhirContext" c
       WHERE c."subjectId" = $1 AND c."resourceType" = ANY($2::text[]) AND c."id" > $3
         AND ($4::timestamptz IS NULL OR c."updatedAt" >= ($4::timestamptz AT TIME ZONE 'UTC'))
       ORDER BY c."id" LIMIT ${BATCH}`,
      [subjectId, types, after, since?.toISOString() ?? null],
    );
    for (const row of rows) {
      await files.write(row.type, servedResource({ ...row, sources: null }));
      written += 1;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  return written;
}

async function exportStatus(exportId: string): Promise<string | null> {
  const { rows } = await pgPool().query<{ status: string }>(`SELECT "status"::text FROM "FhirExport" WHERE "id" = $1`, [exportId]);
  return rows[0]?.status ?? null;
}

/**
 * The export job: runs one export (lib/fhir-api/export). Retried twice after a crash or an error (each attempt starts
 * the export over); after the last attempt the export is failed with the error's message, which its status answers.
 */
export const fhirExportJob = defineJob<{ exportId: string }>({
  queue: FHIR_EXPORT_QUEUE,
  policy: { retryLimit: 2, retryDelay: 5, expireInSeconds: 3 * 3600 },
  async handler(job: PgBoss.JobWithMetadata<{ exportId: string }>) {
    try {
      await runFhirExport(job.data.exportId);
    } catch (error) {
      if (job.retryCount >= job.retryLimit) {
        await pgPool().query(`UPDATE "FhirExport" SET "status" = 'failed', "error" = $2, "completedAt" = now() AT TIME ZONE 'UTC',
           "expiresAt" = (now() AT TIME ZONE 'UTC') + make_interval(secs => $3) WHERE "id" = $1 AND "status" IN ('accepted', 'running')`, [
          job.data.exportId,
          ((error as Error).message ?? String(error)).slice(0, 300),
          EXPORT_FILES_TTL_MS / 1000,
        ]);
        await deleteExportFiles(job.data.exportId);
      }
      throw error;
    }
  },
});
