import type PgBoss from "pg-boss";
import { Webhook } from "standardwebhooks";
import { decryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { JobDefinition } from "@/lib/jobs";
import { log } from "@/lib/log";
import { QUEUE, sendJob } from "@/lib/queue";
import { postWebhook } from "./outbound";
import { deliveryPolicy, type DeliveryPolicy } from "./policy";

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
 * delivery moved on in one transaction guarded by the same attempt number.
 */
export async function deliverWebhook(job: DeliveryJob, policy: DeliveryPolicy = deliveryPolicy()): Promise<DeliveryOutcome> {
  const delivery = await db().webhookDelivery.findUnique({
    where: { id: job.deliveryId },
    include: { event: true, application: { select: { signingSecretEncrypted: true } } },
  });
  // The job can be sent before the writing transaction commits: throwing lets pg-boss retry it shortly.
  if (!delivery) throw new Error(`webhook delivery ${job.deliveryId} is not visible (yet)`);
  if (delivery.status !== "pending" || delivery.attempts !== job.attempt - 1) return "skipped";

  const claimedAt = new Date();
  const claimed = await db().webhookDelivery.updateMany({
    where: { id: delivery.id, status: "pending", attempts: job.attempt - 1 },
    data: { attempts: job.attempt, lastAttemptAt: claimedAt, nextAttemptAt: new Date(claimedAt.getTime() + policy.leaseMs) },
  });
  if (claimed.count === 0) return "skipped";

  const { event } = delivery;
  const body = webhookPayload(event);
  const signature = new Webhook(decryptSecret(delivery.application.signingSecretEncrypted)).sign(event.id, claimedAt, body);
  const result = await postWebhook(
    delivery.url,
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
  const [, moved] = await db().$transaction([
    db().webhookDeliveryAttempt.create({
      data: {
        id: newId("wha_"),
        deliveryId: delivery.id,
        attempt: job.attempt,
        responseCode: result.status,
        latencyMs: result.latencyMs,
        responseExcerpt: result.excerpt,
        error: result.error,
      },
    }),
    db().webhookDelivery.updateMany({
      where: { id: delivery.id, status: "pending", attempts: job.attempt },
      data: {
        status: succeeded ? "succeeded" : last ? "failed" : "pending",
        responseCode: result.status,
        lastError: result.error,
        nextAttemptAt,
      },
    }),
  ]);
  if (moved.count === 1 && nextAttemptAt) await enqueueDelivery({ deliveryId: delivery.id, attempt: job.attempt + 1 }, nextAttemptAt);
  return outcome;
}

/**
 * The delivery queue. pg-boss's own retries only cover a job sent before its delivery committed (or a database
 * hiccup); receiver failures are attempts the handler schedules itself. A job stuck in a killed worker expires
 * after a minute; its rerun finds its attempt claimed and does nothing, the redispatch cycle having sent the next.
 * Twenty pollers work the queue side by side, so a receiver that holds a connection for the full 10 seconds
 * occupies one poller, and other applications' deliveries keep flowing through the rest.
 */
export const webhookDeliveryJob = {
  queue: QUEUE.webhookDelivery,
  policy: { policy: "standard", retryLimit: 4, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
  pollers: 20,
  pollingIntervalSeconds: 1,
  handler: async (job: PgBoss.Job<DeliveryJob>) => {
    await deliverWebhook(job.data);
  },
} satisfies JobDefinition<DeliveryJob>;
