import { conformanceRunJob } from "@/lib/conformance";
import { continuousSyncJob, sourceImportJob } from "@/lib/imports";
import { sandboxSimulationJob } from "@/lib/simulation";
import { webhookDeliveryJob } from "@/lib/webhooks";
import { lifecycleJob } from "./lifecycle-job";
import type { JobDefinition } from "./registry";

/**
 * Every background job the worker runs. A domain adds one by exporting a `defineJob(...)` from its own folder and
 * listing it here: the queue is created with its policy and worked, with no change to the queue or the worker.
 */
export const JOBS: readonly JobDefinition[] = [lifecycleJob, sourceImportJob, sandboxSimulationJob, webhookDeliveryJob, conformanceRunJob, continuousSyncJob];
