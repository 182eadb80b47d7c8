import { db, Prisma, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";

export type EventType = "consent.granted" | "consent.revoked" | "consent.expired" | "records.updated" | "sync.failed";

/**
 * Stores an `evt_` event for the application's webhook deliveries. The payload names subjects, receipts, categories
 * or sources, never record contents. Pass the writing transaction so the event exists exactly when its cause does.
 */
export async function recordEvent(
  event: { applicationId: string; environment: "sandbox" | "live"; type: EventType; data: Record<string, unknown> },
  tx?: Tx,
) {
  return (tx ?? db()).event.create({
    data: { id: newId("evt_"), applicationId: event.applicationId, environment: event.environment, type: event.type, data: event.data as Prisma.InputJsonValue },
  });
}
