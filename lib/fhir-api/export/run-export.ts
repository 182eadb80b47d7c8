import type PgBoss from "pg-boss";
import { pgPool, withPgTransaction } from "@/lib/db";
import { defineJob } from "@/lib/jobs";
import { CATEGORIES, type Category } from "@/lib/records";
import { servedText } from "../read-resources";
import { coveredCategories } from "../served-types";
import { deleteExportFiles, exportFiles, FILE_BYTES, NdjsonFiles } from "./ndjson-files";

/** The pg-boss queue of export jobs. */
export const FHIR_EXPORT_QUEUE = "fhir-export";
/** How long a completed export's files are kept before the lifecycle job deletes them. */
export const EXPORT_FILES_TTL_MS = 60 * 60 * 1000;
/** Consented subjects whose resources one statement reads (their rows streamed through a cursor, FETCH_ROWS at a time). */
const SUBJECT_BATCH = 100;
const FETCH_ROWS = 1_000;
/** How often the export's progress is stored (and a cancellation noticed), at most. */
const PROGRESS_MS = 500;
/** A stored UTC timestamp (timestamp(3)) as toISOString writes it. */
const ISO_UTC = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

type ExportRow = { id: string; applicationId: string; environment: string; status: string; types: string[]; since: Date | null };
/** A record's or a context resource's row, as servedText serves it, with what the subject's consent is checked against. */
type ExportedRow = {
  subjectId: string;
  kind: "record" | "context";
  category: string | null;
  id: string;
  type: string;
  resource: string;
  version: number;
  /** As toISOString writes it (servedText's meta.lastUpdated), formatted by PostgreSQL rather than parsed into a Date. */
  updatedAt: string;
  sources: never;
  sourceId: string | null;
  sourceName: string | null;
};

/** Test seams: a smaller file size, and a hook run before each subject is written (a revocation mid-export). */
export type RunExportOptions = { fileBytes?: number; beforeSubject?: (subjectId: string) => Promise<void> };

class Cancelled extends Error {}

/**
 * Runs one export to its end: every subject of the application and environment with an active receipt when the
 * export starts, in id order, each written only if its consent still covers something when its turn comes (the
 * receipt active and unexpired, its categories narrowed by the application's allowlist, read again per subject), so a
 * revocation during the export removes that subject from what is still to be written. The resources of SUBJECT_BATCH
 * subjects are read by one statement, in subject order, through a cursor (bounded memory), and written to ndjson files
 * as they come, each subject's as its consent then allows. A rerun after a crash starts over: the files a failed
 * attempt wrote are deleted first. A cancelled export stops when it next stores its progress (twice a second) and its
 * files are deleted.
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
  const progress = { done: 0, skipped: 0, written: 0, storedAt: performance.now() };
  const storeProgress = async () => {
    const stored = await pool.query(`UPDATE "FhirExport" SET "subjectsDone" = $2, "subjectsSkipped" = $3, "resourcesWritten" = $4 WHERE "id" = $1 AND "status" = 'running'`, [
      exportId,
      progress.done,
      progress.skipped,
      progress.written,
    ]);
    if (stored.rowCount === 0) throw new Cancelled();
    progress.storedAt = performance.now();
  };
  try {
    let after = "";
    for (;;) {
      const { rows: subjects } = await pool.query<{ id: string }>(
        `SELECT s."id" FROM "Subject" s WHERE s."applicationId" = $1 AND s."environment" = $2::"Environment" AND s."id" > $3 AND ${activeReceiptExists("s")}
         ORDER BY s."id" LIMIT ${SUBJECT_BATCH}`,
        [job.applicationId, job.environment, after],
      );
      if (subjects.length === 0) break;
      after = subjects[subjects.length - 1]!.id;
      await writeSubjects(
        job,
        subjects.map((subject) => subject.id),
        files,
        async (subjectId) => {
          await options.beforeSubject?.(subjectId);
          const categories = await currentCategories(job, subjectId);
          const types = job.types.filter((type) => coveredCategories(type, categories).length > 0);
          if (types.length === 0) progress.skipped += 1;
          return { categories, types };
        },
        async (written) => {
          progress.written += written;
          progress.done += 1;
          if (performance.now() - progress.storedAt >= PROGRESS_MS) await storeProgress();
        },
      );
    }
    await storeProgress();
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
  // Prepared once per connection (read for every subject: planning it each time cost more than running it).
  const { rows } = await pgPool().query<{ categories: string[]; allowlist: string[] }>({
    name: "chartkey-fhir-export-consent",
    text: `SELECT r."categories", a."categoryAllowlist" AS "allowlist"
     FROM "ConsentReceipt" r JOIN "Application" a ON a."id" = r."applicationId"
     WHERE r."subjectId" = $1 AND r."applicationId" = $2 AND r."environment" = $3::"Environment" AND r."status" = 'active'
       AND r."expiresAt" > (now() AT TIME ZONE 'UTC') AND a."status" <> 'suspended'
     LIMIT 1`,
    values: [subjectId, job.applicationId, job.environment],
  });
  const receipt = rows[0];
  if (!receipt) return [];
  return CATEGORIES.filter((category) => receipt.categories.includes(category) && receipt.allowlist.includes(category));
}

/**
 * Writes the resources of `subjects` (in id order) of the export's types, as the FHIR API serves them (the same ids,
 * meta and Patient): their records (with `_since`, only those the change feed names as changed since), then their
 * context resources (with `_since`, those whose stored version changed since), each subject's read by one statement
 * in subject order through a cursor. Right before a subject's turn, `consent` says what it may be written of now (its
 * categories and the types they cover); `subjectDone` is told how many of its resources were written.
 */
async function writeSubjects(
  job: ExportRow,
  subjects: string[],
  files: NdjsonFiles,
  consent: (subjectId: string) => Promise<{ categories: Category[]; types: string[] }>,
  subjectDone: (written: number) => Promise<void>,
): Promise<void> {
  const changed = job.since
    ? `AND r."id" IN (SELECT c."recordId" FROM "RecordChange" c WHERE c."subjectId" = r."subjectId" AND c."createdAt" >= ($3::timestamptz AT TIME ZONE 'UTC'))`
    : "AND $3::timestamptz IS NULL";
  const statement = `
    SELECT r."subjectId", 'record' AS "kind", r."category", r."id", r."resourceType" AS "type", r."resource"::text AS "resource", r."version",
           ${ISO_UTC('r."updatedAt"')} AS "updatedAt", r."sources", NULL AS "sourceId", NULL AS "sourceName"
    FROM "Record" r
    WHERE r."subjectId" = ANY($1::text[]) AND r."deletedAt" IS NULL AND r."resource" IS NOT NULL AND r."resourceType" = ANY($2::text[])
      AND (r."category" <> 'demographics' OR r."id" = (
        SELECT min(d."id") FROM "Record" d WHERE d."subjectId" = r."subjectId" AND d."category" = 'demographics' AND d."deletedAt" IS NULL AND d."resource" IS NOT NULL))
      ${changed}
    UNION ALL
    SELECT c."subjectId", 'context', NULL, c."id", c."resourceType", c."resource"::text, c."version", ${ISO_UTC('c."updatedAt"')}, NULL, c."sourceId",
           (SELECT p."name" FROM "Source" so JOIN "Provider" p ON p."id" = so."providerId" WHERE so."id" = c."sourceId")
    FROM "FhirContext" c
    WHERE c."subjectId" = ANY($1::text[]) AND c."resourceType" = ANY($2::text[])
      AND ($3::timestamptz IS NULL OR c."updatedAt" >= ($3::timestamptz AT TIME ZONE 'UTC'))
    ORDER BY 1, 2 DESC, 4`;
  await withPgTransaction(
    async (client) => {
      await client.query(`SET LOCAL work_mem = '64MB'`);
      await client.query({ text: `DECLARE "export" NO SCROLL CURSOR FOR ${statement}`, values: [subjects, job.types, job.since?.toISOString() ?? null] });
      // The next rows are fetched while these are written (a full fetch means there may be more).
      const fetchRows = async () => (await client.query<ExportedRow>(`FETCH ${FETCH_ROWS} FROM "export"`)).rows;
      let rows = await fetchRows();
      let next = rows.length === FETCH_ROWS ? fetchRows() : null;
      let at = 0;
      for (const subjectId of subjects) {
        const { categories, types } = await consent(subjectId);
        let written = 0;
        for (;;) {
          if (at === rows.length && next) {
            rows = await next;
            next = rows.length === FETCH_ROWS ? fetchRows() : null;
            at = 0;
          }
          const row = rows[at];
          if (!row || row.subjectId !== subjectId) break;
          at += 1;
          if (!types.includes(row.type) || (row.kind === "record" && !categories.includes(row.category as Category))) continue;
          await files.write(row.type, servedText(row));
          written += 1;
        }
        await subjectDone(written);
      }
    },
    { timeoutMs: 120_000 },
  );
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
  // A kick-off is picked up within half a second (pg-boss polls every 2 s by default), a fifth of a small export.
  pollingIntervalSeconds: 0.5,
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
