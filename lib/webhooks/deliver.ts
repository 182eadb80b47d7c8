import type PgBoss from "pg-boss";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { JobDefinition } from "@/lib/jobs";
import { log } from "@/lib/log";
import { QUEUE, sendJob } from "@/lib/queue";
import { postWebhook, type PostResult } from "./outbound";
import { deliveryPolicy, type DeliveryPolicy } from "./policy";
import { webhookSignature } from "./signing";
import { statementBatch } from "./statement-batch";

/** One job per attempt: `attempt` is the attempt this job may make (1-based). */
export type DeliveryJob = { deliveryId: string; attempt: number };

export type DeliveryOutcome = "succeeded" | "retrying" | "failed" | "skipped";

export const USER_AGENT = "Chartkey-Webhooks/1.0";

/** The body receivers get: `{ id, type, timestamp, environment, data }`, `id` being the event's `evt_` id. */
export function webhookPayload(event: { id: string; type: string; createdAt: Date; environment: string; data: unknown }): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), environment: event.environment, data: event.data });
}

export async function enqueueDelivery(job: DeliveryJob, startAfter?: Date): Promise<void> {
  try {
    await sendJob(QUEUE.webhookDelivery, job, { singletonKey: job.deliveryId, startAfter });
  } catch (error) {
    // The redispatch cycle finds pending deliveries without a job, so a lost send only delays the delivery.
    log.warn({ deliveryId: job.deliveryId, err: (error as Error).message }, "could not enqueue a webhook delivery");
  }
}

/**
 * Makes attempt `attempt` of a delivery, at most once. The attempt is claimed with a conditional update
 * (`status = pending AND attempts = attempt - 1`), so a redelivered or duplicate job, or a job for a delivery
 * already succeeded or failed, does nothing; the claim also sets `nextAttemptAt` to a lease, after which the
 * redispatch cycle treats a silent worker as dead and sends the next attempt. The attempt is logged and the
 * delivery moved on in one statement guarded by the same attempt number.
 */
export async function deliverWebhook(job: DeliveryJob, policy: DeliveryPolicy = deliveryPolicy()): Promise<DeliveryOutcome> {
  // Claim the attempt and read what it needs in one statement, shared with the other jobs of the fetched batch.
  const claimedAt = new Date();
  const claimed = await claimAttempt({ job, claimedAt, leaseUntil: new Date(claimedAt.getTime() + policy.leaseMs) });
  if (!claimed) {
    // The job can be sent before the writing transaction commits: throwing lets pg-boss retry it shortly.
    // Otherwise the attempt was made already (a redelivered or duplicate job) or the delivery is settled.
    const exists = await db().webhookDelivery.count({ where: { id: job.deliveryId } });
    if (!exists) throw new Error(`webhook delivery ${job.deliveryId} is not visible (yet)`);
    return "skipped";
  }

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
  const moved = await recordAttempt({ id: newId("wha_"), deliveryId: claimed.id, attempt: job.attempt, status, nextAttemptAt, result });
  if (moved && nextAttemptAt) await enqueueDelivery({ deliveryId: claimed.id, attempt: job.attempt + 1 }, nextAttemptAt);
  return outcome;
}

type Claim = { job: DeliveryJob; claimedAt: Date; leaseUntil: Date };

/**
 * Claims attempts (`status = pending AND attempts = attempt - 1`, which also sets the lease) and reads what each
 * needs. Given two jobs for one attempt, the update claims it once, for the first.
 */
async function claimAttempts(claims: readonly Claim[]): Promise<(ClaimedDelivery | undefined)[]> {
  const rows = await db().$queryRaw<(ClaimedDelivery & { attempts: number })[]>`
    WITH wanted AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(claims.map(({ job, claimedAt, leaseUntil }) => ({ id: job.deliveryId, attempt: job.attempt, claimedAt, leaseUntil })))}::json)
        AS w(id text, attempt int, "claimedAt" timestamp(3), "leaseUntil" timestamp(3))
    ), claimed AS (
      UPDATE "WebhookDelivery" d SET attempts = w.attempt, "lastAttemptAt" = w."claimedAt", "nextAttemptAt" = w."leaseUntil"
      FROM wanted w
      WHERE d.id = w.id AND d.status = 'pending' AND d.attempts = w.attempt - 1
      RETURNING d.id, d.attempts, d.url, d."eventId", d."applicationId"
    )
    SELECT c.id, c.attempts, c.url, e.id AS "eventId", e.type, e.environment::text AS environment, e.data, e."createdAt", a."signingSecretEncrypted",
           a."previousSigningSecretEncrypted", a."previousSigningSecretExpiresAt"
    FROM claimed c JOIN "Event" e ON e.id = c."eventId" JOIN "Application" a ON a.id = c."applicationId"`;
  const byAttempt = new Map(rows.map((row) => [`${row.id}:${row.attempts}`, row]));
  return claims.map(({ job }) => {
    const key = `${job.deliveryId}:${job.attempt}`;
    const row = byAttempt.get(key);
    byAttempt.delete(key);
    return row;
  });
}
const claimAttempt = statementBatch(claimAttempts, async (claim: Claim) => (await claimAttempts([claim]))[0]);

type AttemptRecord = {
  id: string;
  deliveryId: string;
  attempt: number;
  status: "succeeded" | "failed" | "pending";
  nextAttemptAt: Date | null;
  result: PostResult;
};

/**
 * Logs attempts and moves their deliveries on, in one statement guarded by each attempt number (the log's unique
 * (delivery, attempt) refuses a second row for the same attempt); answers, per attempt, whether its delivery moved.
 */
async function recordAttempts(records: readonly AttemptRecord[]): Promise<boolean[]> {
  const rows = records.map(({ id, deliveryId, attempt, status, nextAttemptAt, result }) => ({
    id,
    deliveryId,
    attempt,
    status,
    nextAttemptAt,
    responseCode: result.status,
    latencyMs: result.latencyMs,
    responseExcerpt: result.excerpt,
    error: result.error,
  }));
  const moved = await db().$queryRaw<{ id: string }[]>`
    WITH attempt AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(id text, "deliveryId" text, attempt int, status text,
        "nextAttemptAt" timestamp(3), "responseCode" int, "latencyMs" int, "responseExcerpt" text, error text)
    ), logged AS (
      INSERT INTO "WebhookDeliveryAttempt" (id, "deliveryId", attempt, "responseCode", "latencyMs", "responseExcerpt", error)
      SELECT id, "deliveryId", attempt, "responseCode", "latencyMs", "responseExcerpt", error FROM attempt
    )
    UPDATE "WebhookDelivery" d
    SET status = r.status::"DeliveryStatus", "responseCode" = r."responseCode", "lastError" = r.error, "nextAttemptAt" = r."nextAttemptAt"
    FROM attempt r
    WHERE d.id = r."deliveryId" AND d.status = 'pending' AND d.attempts = r.attempt
    RETURNING r.id`;
  const movedIds = new Set(moved.map((row) => row.id));
  return records.map((record) => movedIds.has(record.id));
}
const recordAttempt = statementBatch(recordAttempts, async (record: AttemptRecord) => (await recordAttempts([record]))[0]!);

type ClaimedDelivery = {
  id: string;
  url: string;
  eventId: string;
  type: string;
  environment: "sandbox" | "live";
  data: unknown;
  createdAt: Date | string;
  signingSecretEncrypted: string;
  previousSigningSecretEncrypted: string | null;
  previousSigningSecretExpiresAt: Date | string | null;
};

/**
 * The delivery queue. pg-boss's own retries only cover a job sent before its delivery committed (or a database
 * hiccup); receiver failures are attempts the handler schedules itself. A job stuck in a killed worker expires
 * after a minute; its rerun finds its attempt claimed and does nothing, the redispatch cycle having sent the next.
 * Four pollers each take up to 50 jobs per fetch and post them in parallel: a receiver that holds a connection
 * for the full 10 seconds delays only its own poller's next fetch (the rest of that batch is delivered at once),
 * and other applications' deliveries keep flowing through the other pollers.
 */
export const webhookDeliveryJob = {
  queue: QUEUE.webhookDelivery,
  policy: { policy: "standard", retryLimit: 4, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
  pollers: 4,
  batchSize: 50,
  pollingIntervalSeconds: 0.5,
  handler: async (job: PgBoss.JobWithMetadata<DeliveryJob>) => {
    await deliverWebhook(job.data);
  },
} satisfies JobDefinition<DeliveryJob>;
