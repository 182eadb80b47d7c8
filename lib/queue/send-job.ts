import PgBoss from "pg-boss";
import { boundedWaits } from "@/lib/db";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";
import { currentTraceparent } from "@/lib/tracing";
import { announceJobs } from "./job-wakeup";

// One sender per process, started on first use.
const client = processState("queue.sender", () => ({ sender: undefined as Promise<PgBoss> | undefined }));

/**
 * A pg-boss client for processes that only enqueue (the web app): it never works jobs and runs no maintenance, so
 * any number of app instances can send while the workers do the work.
 */
function boss(): Promise<PgBoss> {
  client.sender ??= (async () => {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set");
    // Its pool is on the request path (a connection's completion enqueues imports): bounded like the platform's
    // pools (pg-boss hands its options to pg.Pool), so a silent database fails the send instead of holding it.
    const client = new PgBoss({ connectionString, application_name: "chartkey-app", max: 2, supervise: false, schedule: false, ...boundedWaits() });
    client.on("error", (error) => log.warn({ err: error.message }, "queue client error"));
    await client.start();
    return client;
  })().catch((error: unknown) => {
    client.sender = undefined;
    throw error;
  });
  return client.sender;
}

/**
 * Enqueues one job; `singletonKey` keeps one queued job per key (e.g. one import per source at a time) on queues
 * whose policy enforces it, and otherwise only labels the job; `startAfter` holds it until then.
 */
export async function sendJob(queue: string, data: object, options: { singletonKey?: string; startAfter?: Date } = {}): Promise<string | null> {
  const sendOptions: PgBoss.SendOptions = {};
  if (options.singletonKey) sendOptions.singletonKey = options.singletonKey;
  if (options.startAfter) sendOptions.startAfter = options.startAfter;
  const sender = await boss();
  const id = await sender.send(queue, traced(data), sendOptions);
  if (id && runsNow(options.startAfter)) await wake(sender, queue);
  return id;
}

/** Enqueues several jobs of one queue in one statement, with the queue's policy (what `sendJob` does for one). */
export async function sendJobs(queue: string, jobs: readonly { data: object; singletonKey?: string; startAfter?: Date }[]): Promise<void> {
  const sender = await boss();
  await sender.insert(jobs.map(({ data, singletonKey, startAfter }) => ({ name: queue, data: traced(data), singletonKey, startAfter })));
  if (jobs.some((job) => runsNow(job.startAfter))) await wake(sender, queue);
}

/** The job's data with the enqueuing span's traceparent, so the job's span continues its trace (lib/jobs/worker.ts). */
function traced(data: object): object {
  const traceparent = currentTraceparent();
  return traceparent ? { ...data, traceparent } : data;
}

const runsNow = (startAfter: Date | undefined) => !startAfter || startAfter.getTime() <= Date.now();

/** The job is stored whether or not the wake-up reaches a worker (polling finds it), so its failure is only logged. */
async function wake(sender: PgBoss, queue: string): Promise<void> {
  await announceJobs(sender, queue).catch((error: unknown) => log.warn({ queue, err: (error as Error).message }, "could not wake the workers"));
}

/** Stops the sender (tests and graceful shutdown). */
export async function stopSender(): Promise<void> {
  const running = client.sender;
  client.sender = undefined;
  if (running) await (await running).stop({ graceful: false, wait: true });
}
