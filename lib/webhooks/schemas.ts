import type { EventType } from "@/lib/events";

// Client-safe: the dashboard's event type picker imports this file.

/** Every event type a developer can ask the dashboard for a sample of: the six business events and `webhook.test`. */
export const SAMPLE_EVENT_TYPES = ["webhook.test", "consent.granted", "consent.revoked", "consent.expired", "records.updated", "sync.failed", "subject.deleted"] as const satisfies readonly EventType[];
export type SampleEventType = (typeof SAMPLE_EVENT_TYPES)[number];

export function isSampleEventType(value: unknown): value is SampleEventType {
  return typeof value === "string" && (SAMPLE_EVENT_TYPES as readonly string[]).includes(value);
}
