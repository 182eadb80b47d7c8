// The job worker's composition root: every background job and lifecycle cycle the platform runs. Each domain
// declares its own (a `defineJob(...)`, a `LifecycleCycle`) and they are registered here, beside the entry points
// that start the worker (scripts/start.ts, scripts/worker.ts); lib/jobs runs whatever it is given and knows no
// domain, so no domain is ever part of an import cycle through it.
import { conformanceRunJob, conformanceRunsCycle } from "@/lib/conformance";
import { expireConnectSessions } from "@/lib/connect";
import { expireConsentReceipts, purgeEndedSubjects, revokeUpstreamTokensJob } from "@/lib/consent";
import { expireFhirExports, fhirExportJob } from "@/lib/fhir-api";
import { continuousSyncJob, sourceImportJob } from "@/lib/imports";
import { lifecycleJob, pruneIdempotencyRecords, pruneRateLimitWindows, pruneRequestLogs, type JobDefinition, type LifecycleCycle, type WorkerJob } from "@/lib/jobs";
import { purgeSyntheticPatients, sandboxSimulationJob } from "@/lib/simulation";
import { pruneTefcaSessions } from "@/lib/tefca";
import { webhookDeliveryJob } from "@/lib/webhooks";

/** Every cycle the lifecycle job runs, in this order. */
export const LIFECYCLE_CYCLES: readonly LifecycleCycle[] = [
  expireConsentReceipts,
  purgeEndedSubjects,
  expireConnectSessions,
  purgeSyntheticPatients,
  pruneRequestLogs,
  pruneIdempotencyRecords,
  pruneRateLimitWindows,
  pruneTefcaSessions,
  conformanceRunsCycle,
  expireFhirExports,
];

/** The periodic upkeep job over those cycles. */
export const LIFECYCLE_JOB: JobDefinition = lifecycleJob(LIFECYCLE_CYCLES);

/**
 * Every background job the worker runs: each pg-boss job's queue is created with its policy and worked; the webhook
 * deliveries are a loop of the worker's own over their table.
 */
export const JOBS: readonly WorkerJob[] = [LIFECYCLE_JOB, sourceImportJob, sandboxSimulationJob, webhookDeliveryJob, conformanceRunJob, continuousSyncJob, revokeUpstreamTokensJob, fhirExportJob];
