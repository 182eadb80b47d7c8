import type PgBoss from "pg-boss";
import { db, pgPool } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { JobDefinition } from "@/lib/jobs";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";
import { QUEUE, sendJobs } from "@/lib/queue";
import { claimAttempts, recordAttempts, releaseAttempts, type AttemptRow, type ClaimedRow, type ClaimInput, type ReleaseInput } from "./delivery-sql";
import { EndpointLanes, endpointOf } from "./endpoint-lanes";
import { ENDPOINT_CONNECTIONS, postWebhook } from "./outbound";
import { deliveryPolicy, type DeliveryPolicy } from "./policy";
import { webhookSignature } from "./signing";
import { statementBatch } from "./statement-batch";

/** One job per attempt: `attempt` is the attempt this job may make (1-based). */
export type DeliveryJob = { deliveryId: string; attempt: number };

/** `deferred`: the endpoint had no room, so the attempt was given back unmade and re-queued for a little later. */
export type DeliveryOutcome = "succeeded" | "retrying" | "failed" | "skipped" | "deferred";

export const USER_AGENT = "Chartkey-Webhooks/1.0";

/** The body receivers get: `{ id, type, timestamp, environment, data }`, `id` being the event's `evt_` id. */
export function webhookPayload(event: { id: string; type: string; createdAt: Date; environment: string; data: unknown }): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), environment: event.environment, data: event.data });
}

/** Attempts a worker holds at once (running or waiting for their endpoint); past this its pollers wait. */
const MAX_HELD = 500;
/**
 * How long an attempt may wait for a place at its endpoint before it is given back unmade: with the 10-second
 * timeout it stays inside the claim's 20-second lease, so a waiting attempt is never taken for a dead worker's.
 */
const LANE_WAIT_MS = 5000;
/** How long the outcomes of attempts are gathered into one statement. */
const RECORD_WINDOW_MS = 20;
/** How long an attempt given back for want of room waits before it is offered again (± half, spread out). */
const DEFER_MS = 5000;

// The attempts this process holds, per endpoint (as many running as its connection pool holds) and in all.
const lanes = processState("webhooks.lanes", () => new EndpointLanes(ENDPOINT_CONNECTIONS, MAX_HELD, LANE_WAIT_MS));

type Enqueue = { job: DeliveryJob; startAfter?: Date };
const sendDeliveryJobs = async (items: Enqueue[]) => {
  await sendJobs(QUEUE.webhookDelivery, items.map(({ job, startAfter }) => ({ data: job, singletonKey: job.deliveryId, startAfter })));
  return items.map(() => undefined);
};
// Retries scheduled by one turn's outcomes go out as one insert.
const sendDeliveryJob = statementBatch(sendDeliveryJobs, async (item: Enqueue) => void (await sendDeliveryJobs([item])));

export async function enqueueDelivery(job: DeliveryJob, startAfter?: Date): Promise<void> {
  try {
    await sendDeliveryJob({ job, startAfter });
  } catch (error) {
    // The redispatch cycle finds pending deliveries without a job, so a lost send only delays the delivery.
    log.warn({ deliveryId: job.deliveryId, err: (error as Error).message }, "could not enqueue a webhook delivery");
  }
}

/**
 * Makes attempt `attempt` of a delivery, at most once, and answers how it went. The attempt is claimed with a
 * conditional update (`status = pending AND attempts = attempt - 1`), so a redelivered or duplicate job, or a job
 * for a delivery already succeeded or failed, does nothing; the claim also sets `nextAttemptAt` to a lease, after
 * which the redispatch cycle treats a silent worker as dead and sends the next attempt. An endpoint that already
 * runs as many attempts as its connection pool holds queues this one for a few seconds, then gives it back unmade
 * and re-queued a few seconds later (`deferred`). The attempt is logged and the delivery moved on in one statement guarded by the same attempt number.
 */
export async function deliverWebhook(job: DeliveryJob, policy: DeliveryPolicy = deliveryPolicy()): Promise<DeliveryOutcome> {
  const begun = await beginAttempt(job, policy);
  return typeof begun === "string" ? begun : begun.outcome;
}

/** Claims the attempt and queues it at its endpoint: the wait, the POST and its log run on in `outcome`. */
async function beginAttempt(job: DeliveryJob, policy: DeliveryPolicy): Promise<DeliveryOutcome | { outcome: Promise<DeliveryOutcome> }> {
  // Claim the attempt and read what it needs in one statement, shared with the other jobs of the fetched batch.
  const claimedAt = new Date();
  const claimed = await claimAttempt({ id: job.deliveryId, attempt: job.attempt, claimedAt, leaseUntil: new Date(claimedAt.getTime() + policy.leaseMs) });
  if (!claimed) {
    // The job can be sent before the writing transaction commits: throwing lets pg-boss retry it shortly.
    // Otherwise the attempt was made already (a redelivered or duplicate job) or the delivery is settled.
    const exists = await db().webhookDelivery.count({ where: { id: job.deliveryId } });
    if (!exists) throw new Error(`webhook delivery ${job.deliveryId} is not visible (yet)`);
    return "skipped";
  }
  const endpoint = endpointOf(claimed.url);
  const admitted = lanes.enter(endpoint);
  const outcome = admitted.then(async (admitted): Promise<DeliveryOutcome> => {
    if (admitted) return makeAttempt(job, claimed, claimedAt, policy).finally(() => lanes.leave(endpoint));
    const nextAttemptAt = new Date(Date.now() + DEFER_MS * (0.5 + Math.random()));
    if (await releaseAttempt({ id: claimed.id, attempt: job.attempt, previousAttemptAt: claimed.previousAttemptAt, nextAttemptAt })) {
      await enqueueDelivery(job, nextAttemptAt);
    }
    return "deferred";
  });
  return { outcome };
}

async function makeAttempt(job: DeliveryJob, claimed: ClaimedRow, claimedAt: Date, policy: DeliveryPolicy): Promise<DeliveryOutcome> {
  const event = { id: claimed.eventId, type: claimed.type, environment: claimed.environment, data: claimed.data, createdAt: new Date(claimed.createdAt) };
  const body = webhookPayload(event);
  const signature = webhookSignature(
    {
      current: claimed.signingSecretEncrypted,
      previous: claimed.previousSigningSecretEncrypted,
      previousExpiresAt: claimed.previousSigningSecretExpiresAt ? new Date(claimed.previousSigningSecretExpiresAt) : null,
    },
    event.id,
    claimedAt,
    body,
  );
  const result = await postWebhook(
    claimed.url,
    event.environment,
    body,
    {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      "webhook-id": event.id,
      "webhook-timestamp": Math.floor(claimedAt.getTime() / 1000).toString(),
      "webhook-signature": signature,
    },
    policy.timeoutMs,
  );

  const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
  const last = job.attempt >= policy.maxAttempts;
  const nextAttemptAt = succeeded || last ? null : new Date(Date.now() + policy.backoffMs(job.attempt));
  const outcome: DeliveryOutcome = succeeded ? "succeeded" : last ? "failed" : "retrying";
  const status = succeeded ? "succeeded" : last ? "failed" : "pending";
  const moved = await recordAttempt({
    id: newId("wha_"),
    deliveryId: claimed.id,
    attempt: job.attempt,
    status,
    nextAttemptAt,
    responseCode: result.status,
    latencyMs: result.latencyMs,
    responseExcerpt: result.excerpt,
    error: result.error,
  });
  if (moved && nextAttemptAt) await enqueueDelivery({ deliveryId: claimed.id, attempt: job.attempt + 1 }, nextAttemptAt);
  return outcome;
}

// The hot path's statements, each gathering the calls of one event-loop turn (a fetched batch's claims, the
// outcomes that arrived together) into one round trip.
const claimAttemptsOf = async (claims: ClaimInput[]): Promise<(ClaimedRow | undefined)[]> => {
  const { rows } = await pgPool().query<ClaimedRow>(claimAttempts(claims));
  // Given two claims of one attempt, the statement claimed it once: the first gets it.
  const byAttempt = new Map(rows.map((row) => [`${row.id}:${row.attempts}`, row]));
  return claims.map(({ id, attempt }) => {
    const key = `${id}:${attempt}`;
    const row = byAttempt.get(key);
    byAttempt.delete(key);
    return row;
  });
};
const claimAttempt = statementBatch(claimAttemptsOf, async (claim: ClaimInput) => (await claimAttemptsOf([claim]))[0]);

const releaseAttemptsOf = async (releases: ReleaseInput[]): Promise<boolean[]> => {
  const { rows } = await pgPool().query<{ id: string }>(releaseAttempts(releases));
  const released = new Set(rows.map((row) => row.id));
  return releases.map(({ id }) => released.has(id));
};
const releaseAttempt = statementBatch(releaseAttemptsOf, async (release: ReleaseInput) => (await releaseAttemptsOf([release]))[0]!);

const recordAttemptsOf = async (attempts: AttemptRow[]): Promise<boolean[]> => {
  const { rows } = await pgPool().query<{ id: string }>(recordAttempts(attempts));
  const moved = new Set(rows.map((row) => row.id));
  return attempts.map(({ id }) => moved.has(id));
};
// Outcomes arrive one by one as receivers answer: gathered over 20 ms, they are one statement and one commit instead
// of dozens (each commit waits for its WAL flush), which is most of what an attempt costs PostgreSQL.
const recordAttempt = statementBatch(recordAttemptsOf, async (attempt: AttemptRow) => (await recordAttemptsOf([attempt]))[0]!, 500, RECORD_WINDOW_MS);

/**
 * The delivery queue. pg-boss's own retries only cover a job sent before its delivery committed (or a database
 * hiccup); receiver failures are attempts the handler schedules itself. A job is done once its attempt is claimed
 * and started: the POST runs on while the poller fetches more, so a receiver that holds its connections for the
 * full 10 seconds holds only its own endpoint's places (as many as its connection pool), never a poller. A worker
 * that dies mid-attempt leaves the claim's lease, after which the redispatch cycle logs the attempt as interrupted
 * and sends the next one. Pollers take up to 100 jobs per fetch and wait while 500 attempts are held.
 */
export const webhookDeliveryJob = {
  queue: QUEUE.webhookDelivery,
  policy: { policy: "standard", retryLimit: 4, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
  pollers: 2,
  batchSize: 100,
  pollingIntervalSeconds: 0.5,
  handler: async (job: PgBoss.JobWithMetadata<DeliveryJob>) => {
    const begun = await beginAttempt(job.data, deliveryPolicy());
    if (typeof begun === "string") return;
    begun.outcome.catch((error: unknown) => {
      // The attempt's log could not be written (the database went away): its lease runs out and the redispatch
      // cycle logs it as interrupted and sends the next attempt.
      log.warn({ deliveryId: job.data.deliveryId, err: (error as Error).message }, "could not log a webhook attempt");
    });
    await lanes.room();
  },
  // A stopping worker lets the attempts it started finish and log their outcome.
  drain: () => lanes.idle(),
} satisfies JobDefinition<DeliveryJob>;
