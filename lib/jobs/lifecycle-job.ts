import { runLifecycle, type LifecycleCycle } from "./lifecycle";
import { defineJob, type JobDefinition } from "./registry";

/**
 * The periodic upkeep job over the given cycles: runs each once per 30-second window across the whole deployment.
 * `singleton` keeps a slow run from overlapping the next one; no retries, because the next window runs the cycles
 * again anyway; a run stuck for two minutes expires so the queue moves on.
 */
export function lifecycleJob(cycles: readonly LifecycleCycle[]): JobDefinition {
  return defineJob({
    queue: "lifecycle",
    policy: { policy: "singleton", retryLimit: 0, expireInSeconds: 120 },
    everySeconds: 30,
    handler: async () => {
      await runLifecycle(cycles);
    },
  });
}
