import type PgBoss from "pg-boss";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { JobDefinition } from "@/lib/jobs";
import { log } from "@/lib/log";
import { QUEUE, sendJob } from "@/lib/queue";
import { postWebhook } from "./outbound";
import { deliveryPolicy, type DeliveryPolicy } from "./policy";
import { webhookSignature } from "./signing";

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
  // Claim the attempt and read what it needs in one statement (the hot path of a draining backlog).
  const claimedAt = new Date();
  const leaseUntil = new Date(claimedAt.getTime() + policy.leaseMs);
  const [claimed] = await db().$queryRaw<ClaimedDelivery[]>`
    WITH claimed AS (
      UPDATE "WebhookDelivery" SET attempts = ${job.attempt}, "lastAttemptAt" = ${claimedAt}, "nextAttemptAt" = ${leaseUntil}
      WHERE id = ${job.deliveryId} AND status = 'pending' AND attempts = ${job.attempt - 1}
      RETURNING id, url, "eventId", "applicationId"
    )
    SELECT c.id, c.url, e.id AS "eventId", e.type, e.environment::text AS environment, e.data, e."createdAt", a."signingSecretEncrypted",
           a."previousSigningSecretEncrypted", a."previousSigningSecretExpiresAt"
    FROM claimed c JOIN "Event" e ON e.id = c."eventId" JOIN "Application" a ON a.id = c."applicationId"`;
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
  // The attempt's log row and the delivery's move in one statement, guarded by the attempt number; the log's
  // unique (delivery, attempt) refuses a second row for the same attempt.
  const moved = await db().$executeRaw`
    WITH logged AS (
      INSERT INTO "WebhookDeliveryAttempt" (id, "deliveryId", attempt, "responseCode", "latencyMs", "responseExcerpt", error)
      VALUES (${newId("wha_")}, ${claimed.id}, ${job.attempt}, ${result.status}, ${result.latencyMs}, ${result.excerpt}, ${result.error})
    )
    UPDATE "WebhookDelivery"
    SET status = ${status}::"DeliveryStatus", "responseCode" = ${result.status}, "lastError" = ${result.error}, "nextAttemptAt" = ${nextAttemptAt}
    WHERE id = ${claimed.id} AND status = 'pending' AND attempts = ${job.attempt}`;
  if (moved === 1 && nextAttemptAt) await enqueueDelivery({ deliveryId: claimed.id, attempt: job.attempt + 1 }, nextAttemptAt);
  return outcome;
}

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
