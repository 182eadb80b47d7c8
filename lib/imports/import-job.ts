import type PgBoss from "pg-boss";
import type { JobDefinition } from "@/lib/jobs";
import { QUEUE } from "@/lib/queue";
import { fetchPatientResources } from "@/lib/sources";
import { runSourceImport } from "./run-source-import";

type ImportJobData = { sourceId: string };

/** What the import job runs for one source: read it through the SMART client, then write it. */
export async function importSource(sourceId: string) {
  return runSourceImport(sourceId, async (id) => (await fetchPatientResources({ id })).resources);
}

/**
 * One source's import. pg-boss retries a failed fetch with exponential backoff, and a job whose worker died expires
 * and runs again; the import is idempotent, so neither duplicates nor loses a record.
 */
export const sourceImportJob = {
  queue: QUEUE.sourceImport,
  policy: { policy: "standard", retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 600 },
  async handler(job: PgBoss.Job<ImportJobData>) {
    await importSource(job.data.sourceId);
  },
} satisfies JobDefinition<ImportJobData>;
