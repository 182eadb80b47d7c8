import { db, Prisma, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";

/** The five business events, and `webhook.test`, which the dashboard sends on demand. */
export type EventType = "consent.granted" | "consent.revoked" | "consent.expired" | "records.updated" | "sync.failed" | "subject.deleted" | "webhook.test";

/**
 * Stores an `evt_` event for the application's webhook deliveries. The payload names subjects, receipts, categories
 * or sources, never record contents. Pass the writing transaction so the event exists exactly when its cause does.
 *
 * When the application has a webhook URL, the same transaction writes a pending `WebhookDelivery`, due at once: that
 * row is the delivery's place in the queue (workers claim due rows, lib/webhooks/deliver.ts), so it is delivered
 * exactly when the event commits, and a rollback leaves nothing to deliver.
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
    await client.webhookDelivery.create({
      data: { id: newId("whd_"), eventId: stored.id, applicationId: event.applicationId, url: application.webhookUrl, nextAttemptAt: new Date() },
    });
  }
  return stored;
}
