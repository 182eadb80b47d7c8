import { z } from "zod";
import type { EventType } from "@/lib/events";

/** Every kind of event the platform sends, as the OpenAPI document's `webhooks` lists them (docs/webhooks.md). */
export const WEBHOOK_EVENT_TYPES = ["consent.granted", "consent.revoked", "consent.expired", "records.updated", "sync.failed", "subject.deleted", "webhook.test"] as const satisfies readonly EventType[];

// A kind added to EventType but not listed here fails to compile: the document cannot leave one out.
type Unlisted = Exclude<EventType, (typeof WEBHOOK_EVENT_TYPES)[number]>;
const everyKindListed: [Unlisted] extends [never] ? true : never = true;
void everyKindListed;

/** The body of every webhook delivery (`webhookPayload`, lib/webhooks/deliver.ts). */
export const webhookEventSchema = z
  .object({
    id: z.string().describe("The event's id (evt_), also sent as the webhook-id header: a redelivery carries the same id."),
    type: z
      .enum(WEBHOOK_EVENT_TYPES)
      .describe(
        "consent.granted: a Connect session completed with a share receipt. consent.revoked: an active receipt was revoked. " +
          "consent.expired: the lifecycle worker marked an expired receipt. records.updated: an import changed records (continuous consent). " +
          "sync.failed: an import failed (continuous consent). subject.deleted: the patient asked on their receipt page for Chartkey's copy " +
          "of the subject's data to be deleted and it is done; delete your copy too (data: subject, receiptId, deletedAt, reason). " +
          "webhook.test: sent from the dashboard.",
      ),
    timestamp: z.string().describe("When the event happened, ISO 8601 UTC with milliseconds."),
    environment: z.enum(["sandbox", "live"]),
    data: z.record(z.string(), z.unknown()).describe("The event's details; every business event names the subject and, where one applies, the receiptId."),
  })
  .meta({ id: "WebhookEvent" });
