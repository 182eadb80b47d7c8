import type PgBoss from "pg-boss";
import { db } from "@/lib/db";
import type { JobDefinition } from "@/lib/jobs";
import { QUEUE } from "@/lib/queue";
import { readResourceTypesFor, resourceTypesFor } from "@/lib/records";
import { fetchPatientResourcePages, narrowSourceScope } from "@/lib/sources";
import { failureIsTransient, runSourceImport, type ImportAttempt, type ImportTrigger } from "./run-source-import";

/** `trigger`: what enqueued it (absent: a Connect sign-in or sandbox event); a re-run also resets the schedule's backoff. */
type ImportJobData = { sourceId: string; trigger?: ImportTrigger };

/**
 * What the import job runs for one source: narrow the source's tokens to what an import of the shared categories
 * reads, search those categories' types (and read the context their resources reference) through the SMART
 * client, then write them.
 */
export async function importSource(sourceId: string, attempt: ImportAttempt = {}) {
  return runSourceImport(
    sourceId,
    async (id, categories, onPage) => {
      await narrowSourceScope(id, readResourceTypesFor(categories), undefined, categories);
      await fetchPatientResourcePages({ id }, resourceTypesFor(categories), onPage);
    },
    attempt,
  );
}

/**
 * One source's import. pg-boss retries a transient failure with exponential backoff, and a job whose worker died
 * expires and runs again; the import is idempotent, so neither duplicates nor loses a record. A failure no retry
 * can get past ends the job at once (the import and the source record it, and `sync.failed` reports it).
 */
export const sourceImportJob = {
  queue: QUEUE.sourceImport,
  policy: { policy: "standard", retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 600 },
  async handler(job: PgBoss.JobWithMetadata<ImportJobData>) {
    const lastAttempt = job.retryCount >= job.retryLimit;
    const trigger = job.data.trigger ?? "connect";
    try {
      await importSource(job.data.sourceId, { lastAttempt, trigger });
      // A re-run that succeeded (say after an operator fixed the provider) ends the schedule's backoff: the next
      // continuous-sync pass schedules the source one interval after this sync.
      if (trigger === "rerun") await db().source.updateMany({ where: { id: job.data.sourceId, syncFailures: { gt: 0 } }, data: { syncFailures: 0, nextSyncAt: null } });
    } catch (error) {
      if (lastAttempt || failureIsTransient(error)) throw error;
    }
  },
} satisfies JobDefinition<ImportJobData>;
