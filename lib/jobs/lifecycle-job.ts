import { runLifecycle } from "./lifecycle";
import { LIFECYCLE_CYCLES } from "./registered-cycles";
import { defineJob } from "./registry";

/**
 * The periodic upkeep job: runs every registered lifecycle cycle once per 30-second window across the whole
 * deployment. `singleton` keeps a slow run from overlapping the next one; no retries, because the next window
 * runs the cycles again anyway; a run stuck for two minutes expires so the queue moves on.
 */
export const lifecycleJob = defineJob({
  queue: "lifecycle",
  policy: { policy: "singleton", retryLimit: 0, expireInSeconds: 120 },
  everySeconds: 30,
  handler: async () => {
    await runLifecycle(LIFECYCLE_CYCLES);
  },
});
