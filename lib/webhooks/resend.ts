import { db } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { newId } from "@/lib/ids";
import { sampleEventData } from "./sample-events";
import type { SampleEventType } from "./schemas";

export type ResendResult =
  | { ok: true; deliveryId: string }
  | { ok: false; reason: "not_found" | "no_webhook_url" };

/**
 * Re-sends a delivery as a new delivery of the same event to the application's current URL: the old delivery
 * keeps its attempt log, and the receiver sees the same `webhook-id` and can drop it if it had it already. A
 * delivery still pending may be re-sent too: a developer who fixed the endpoint need not wait 16 s to hours for the
 * next retry (the pending one keeps its schedule; receivers dedupe on `webhook-id`).
 */
export async function resendDelivery(deliveryId: string, applicationId: string): Promise<ResendResult> {
  const delivery = await db().webhookDelivery.findFirst({ where: { id: deliveryId, applicationId }, include: { application: { select: { webhookUrl: true } } } });
  if (!delivery) return { ok: false, reason: "not_found" };
  const url = delivery.application.webhookUrl;
  if (!url) return { ok: false, reason: "no_webhook_url" };
  // Due at once: the next claim of any worker takes it.
  const created = await db().webhookDelivery.create({
    data: { id: newId("whd_"), eventId: delivery.eventId, applicationId, url, nextAttemptAt: new Date() },
  });
  return { ok: true, deliveryId: created.id };
}

/**
 * A `webhook.test` event, or a sample of any business event (lib/webhooks/sample-events.ts), on demand: stored like
 * any event (a delivery needs its event, and the dashboard's log shows it), so it is delivered, signed and logged
 * exactly like real events. Samples carry `data.sample: true` and identifiers that name nothing.
 */
export async function sendTestEvent(applicationId: string, environment: "sandbox" | "live", type: SampleEventType = "webhook.test") {
  const application = await db().application.findUniqueOrThrow({ where: { id: applicationId }, select: { webhookUrl: true } });
  if (!application.webhookUrl) return { ok: false as const, reason: "no_webhook_url" as const };
  const event = await recordEvent({ applicationId, environment, type, data: sampleEventData(type) });
  const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
  return { ok: true as const, eventId: event.id, deliveryId: delivery.id };
}
