import type PgBoss from "pg-boss";

/**
 * The options a job's pg-boss queue is created with: those pg-boss 10 stores per queue (it ignores the minute,
 * hour and day variants at queue level, so they are left out here).
 */
export type JobPolicy = Pick<
  PgBoss.Queue,
  "policy" | "retryLimit" | "retryDelay" | "retryBackoff" | "expireInSeconds" | "retentionMinutes" | "deadLetter"
>;

/** One kind of background job: its queue, how the queue treats its jobs, and the code that runs one. */
export type JobDefinition<Data extends object = object> = {
  /** The pg-boss queue name, unique across the registry. */
  queue: string;
  policy: JobPolicy;
  /**
   * Runs one job. A job can run again after a crash, an expiry or a retry, so the handler must be idempotent; its
   * `retryCount` and `retryLimit` tell it whether this attempt is the last. Written as a method so that jobs
   * carrying different data still fit one `JobDefinition[]` registry.
   */
  handler(job: PgBoss.JobWithMetadata<Data>): Promise<void>;
  /**
   * Makes the job periodic: every worker offers one job per window of this many seconds, and pg-boss admits only
   * the first offer of each window across all instances, so the job runs once per window however many run.
   */
  everySeconds?: number;
  /**
   * How many pollers work the queue side by side in each worker (default 1). A poller takes up to `batchSize`
   * jobs per fetch (default 1) and runs them in parallel, each succeeding or failing on its own; it fetches again
   * when the slowest is done, so one slow job holds up only its own poller's next fetch.
   */
  pollers?: number;
  batchSize?: number;
  /** How often an idle poller asks for a job (pg-boss default 2 seconds). */
  pollingIntervalSeconds?: number;
};

/**
 * Background work a worker runs itself rather than through a pg-boss queue (webhook deliveries claim their own rows):
 * started with the worker; `stop` resolves once it has stopped taking work and finished what it started.
 */
export type WorkerLoop = { name: string; start(): { stop(): Promise<void> } };

/** What a worker is given to run: pg-boss jobs and loops of its own. */
export type WorkerJob = JobDefinition | WorkerLoop;

/** Whether `job` is a loop of the worker's own rather than a pg-boss queue. */
export function isWorkerLoop(job: WorkerJob): job is WorkerLoop {
  return "start" in job;
}

/** Declares a job; a domain exports the result and `scripts/platform-jobs.ts` registers it. */
export function defineJob<Data extends object = object>(job: JobDefinition<Data>): JobDefinition<Data> {
  return job;
}

/** Two jobs on one queue would each receive the other's jobs, so a registry with a repeated queue is refused. */
export function assertDistinctQueues(jobs: readonly WorkerJob[]): void {
  const seen = new Set<string>();
  for (const job of jobs) {
    if (isWorkerLoop(job)) continue;
    if (seen.has(job.queue)) throw new Error(`Two registered jobs use the queue "${job.queue}"`);
    seen.add(job.queue);
  }
}
