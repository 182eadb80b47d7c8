import type PgBoss from "pg-boss";
import type { JobDefinition } from "@/lib/jobs";
import { QUEUE } from "@/lib/queue";
import { resourceTypesFor } from "@/lib/records";
import { fetchPatientResources, narrowSourceScope } from "@/lib/sources";
import { failureIsTransient, runSourceImport, type ImportAttempt } from "./run-source-import";

type ImportJobData = { sourceId: string };

/**
 * What the import job runs for one source: narrow the source's tokens to the shared categories' types, read those
 * types through the SMART client, then write them.
 */
export async function importSource(sourceId: string, attempt: ImportAttempt = {}) {
  return runSourceImport(
    sourceId,
    async (id, categories) => {
      const types = resourceTypesFor(categories);
      // Shared documents keep the Binary scope the sign-in asked for: the linked C-CDA documents are read with it.
      await narrowSourceScope(id, categories.includes("documents") ? [...types, "Binary"] : types);
      return (await fetchPatientResources({ id }, types)).resources;
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
    try {
      await importSource(job.data.sourceId, { lastAttempt });
    } catch (error) {
      if (lastAttempt || failureIsTransient(error)) throw error;
    }
  },
} satisfies JobDefinition<ImportJobData>;
