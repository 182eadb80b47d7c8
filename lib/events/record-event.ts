import { db, Prisma, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { QUEUE, sendJob } from "@/lib/queue";

/** The five business events, and `webhook.test`, which the dashboard sends on demand. */
export type EventType = "consent.granted" | "consent.revoked" | "consent.expired" | "records.updated" | "sync.failed" | "webhook.test";

/**
 * Stores an `evt_` event for the application's webhook deliveries. The payload names subjects, receipts, categories
 * or sources, never record contents. Pass the writing transaction so the event exists exactly when its cause does.
 *
 * When the application has a webhook URL, the same transaction writes a pending `WebhookDelivery` (the outbox
 * row) and the delivery job is sent at once, without waiting: if the transaction has not committed when the job
 * runs, the job fails and pg-boss retries it a second later; if it rolled back, the retries find nothing. The
 * webhooks redispatch cycle re-sends the job of any due pending delivery without one, so a crash between the
 * commit and the send loses nothing.
 */
export async function recordEvent(
  event: { applicationId: string; environment: "sandbox" | "live"; type: EventType; data: Record<string, unknown> },
  tx?: Tx,
) {
  const client = tx ?? db();
  const stored = await client.event.create({
    data: { id: newId("evt_"), applicationId: event.applicationId, environment: event.environment, type: event.type, data: event.data as Prisma.InputJsonValue },
  });
  const application = await client.application.findUnique({ where: { id: event.applicationId }, select: { webhookUrl: true } });
  if (application?.webhookUrl) {
    const delivery = await client.webhookDelivery.create({
      data: { id: newId("whd_"), eventId: stored.id, applicationId: event.applicationId, url: application.webhookUrl, nextAttemptAt: new Date() },
    });
    const send = sendJob(QUEUE.webhookDelivery, { deliveryId: delivery.id, attempt: 1 }, { singletonKey: delivery.id });
    if (tx) {
      // Not awaited inside a transaction: the send must neither hold the transaction open nor fail it.
      send.catch((error: unknown) => log.warn({ deliveryId: delivery.id, err: (error as Error).message }, "could not enqueue a webhook delivery"));
    } else {
      await send.catch((error: unknown) => log.warn({ deliveryId: delivery.id, err: (error as Error).message }, "could not enqueue a webhook delivery"));
    }
  }
  return stored;
}
