import type PgBoss from "pg-boss";
import type { JobDefinition } from "@/lib/jobs";
import { QUEUE } from "@/lib/queue";
import { fetchPatientResources } from "@/lib/sources";
import { runSourceImport } from "./run-source-import";

type ImportJobData = { sourceId: string };

/**
 * One source's import. pg-boss retries a failed fetch with exponential backoff, and a job whose worker died expires
 * and runs again; the import is idempotent, so neither duplicates nor loses a record.
 */
export const sourceImportJob = {
  queue: QUEUE.sourceImport,
  policy: { policy: "standard", retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 600 },
  async handler(job: PgBoss.Job<ImportJobData>) {
    await runSourceImport(job.data.sourceId, async (sourceId) => (await fetchPatientResources({ id: sourceId })).resources);
  },
} satisfies JobDefinition<ImportJobData>;
