import type PgBoss from "pg-boss";
import { log } from "@/lib/log";
import { contextFrom, inSpan, SpanKind } from "@/lib/tracing";
import { retryInterruptedJobs } from "./interrupted-jobs";
import { surviveLostDatabase } from "./lost-database";
import { queueErrors, startQueue } from "./queue";
import { isWorkerLoop, type JobDefinition, type WorkerJob } from "./registry";
import { PollerWakeups } from "./wake-pollers";

export type RunningWorker = { boss: PgBoss; wakeups: PollerWakeups; stop: () => Promise<void> };

/**
 * Starts a worker for every registered job: it works each job's queue and, for periodic jobs, offers the next job
 * three times per window; loops of its own (`WorkerLoop`) start beside them and stop with it. `sendThrottled` admits one job per window across every instance, so N workers still
 * run a periodic job once per window, and a worker that starts late or misses a tick still fills the window.
 * `serverJustStarted` (the caller started the database server itself) reruns the jobs a dead worker left active.
 */
export async function startWorker(databaseUrl: string, given: readonly WorkerJob[], options: { serverJustStarted?: boolean } = {}): Promise<RunningWorker> {
  const boss = await startQueue(databaseUrl, given);
  const jobs = given.filter((job): job is JobDefinition => !isWorkerLoop(job));
  surviveLostDatabase();
  if (options.serverJustStarted) {
    const interrupted = await retryInterruptedJobs(boss);
    if (interrupted > 0) log.info({ interrupted }, "jobs a stopped worker was running run again");
  }
  const wakeups = new PollerWakeups(databaseUrl, boss);
  for (const job of jobs) {
    // With its metadata each job says which attempt it is (retryCount, retryLimit).
    // pg-boss hands handlers a batch and completes or fails it whole; so a batch's jobs run in parallel, a failed
    // one is failed on its own (and retried as its policy says), and pg-boss's completion then skips it.
    const options = { batchSize: job.batchSize ?? 1, includeMetadata: true as const, ...(job.pollingIntervalSeconds ? { pollingIntervalSeconds: job.pollingIntervalSeconds } : {}) };
    for (let count = 0; count < (job.pollers ?? 1); count++) {
      // A full batch means more jobs are waiting: the poller fetches again at once instead of sleeping out its
      // polling interval (which would cap a queue at pollers x batchSize jobs per interval).
      const poller: { id?: string } = {};
      poller.id = await boss.work<object>(job.queue, options, async (batch) => {
        if (batch.length === options.batchSize && poller.id) boss.notifyWorker(poller.id);
        if (batch.length === 1) return traced(job, batch[0]!);
        const outcomes = await Promise.allSettled(batch.map((item) => traced(job, item)));
        const failed = batch.filter((_, index) => outcomes[index]!.status === "rejected");
        for (const item of failed) {
          const reason = (outcomes[batch.indexOf(item)] as PromiseRejectedResult).reason as Error;
          await boss.fail(job.queue, item.id, { message: reason?.message ?? String(reason) });
        }
      });
      wakeups.add(job.queue, poller.id);
    }
  }

  const offers = jobs.flatMap(({ queue, everySeconds }) => {
    if (everySeconds === undefined) return [];
    const offer = async () => {
      try {
        await boss.sendThrottled(queue, {}, {}, everySeconds);
      } catch (error) {
        log.warn({ queue, err: (error as Error).message }, "could not offer a periodic job");
      }
      for (const error of queueErrors.splice(0)) log.warn({ err: error.message }, "queue error");
    };
    return [{ offer, everySeconds }];
  });
  await Promise.all(offers.map(({ offer }) => offer()));
  const timers = offers.map(({ offer, everySeconds }) => {
    const timer = setInterval(() => void offer(), (everySeconds * 1000) / 3);
    timer.unref();
    return timer;
  });

  const loops = given.filter(isWorkerLoop).map((loop) => loop.start());

  return {
    boss,
    wakeups,
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      await wakeups.close();
      await Promise.all([boss.stop({ graceful: true, timeout: 10_000, wait: true }), ...loops.map((loop) => loop.stop())]);
    },
  };
}

/**
 * One run of a job in a span named by its queue (`job source-import`: an import; `job webhook-delivery`: a delivery
 * attempt; `job conformance-run`: a conformance phase), continuing the trace of the request that enqueued it
 * (`traceparent` in its data, lib/queue/send-job.ts).
 */
function traced(job: JobDefinition, item: PgBoss.JobWithMetadata<object>): Promise<void> {
  const data = item.data as { traceparent?: unknown };
  return inSpan(`job ${job.queue}`, { "chartkey.job.queue": job.queue, "chartkey.job.retry": item.retryCount }, () => job.handler(item) as Promise<void>, {
    kind: SpanKind.CONSUMER,
    parent: contextFrom(data?.traceparent),
  });
}
