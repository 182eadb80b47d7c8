import { db } from "@/lib/db";
import { idPattern } from "@/lib/ids";
import { decodeCursor, encodeCursor } from "@/lib/http";
import { webhookPayload } from "./deliver";

const DELIVERY_ID = idPattern("whd_");

export type DeliveryLogEntry = {
  id: string;
  eventId: string;
  eventType: string;
  environment: "sandbox" | "live";
  url: string;
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  /** The latest attempt's latency (ms), null before the first attempt. */
  latencyMs: number | null;
  /** When the next attempt is due while pending. */
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  createdAt: Date;
};

type Position = { c: string; i: string };

/** What a delivery's state reads as: a pending one that has failed an attempt already is retrying, not pending. */
export type DeliveryState = "pending" | "retrying" | "succeeded" | "failed";
export function deliveryState(status: DeliveryLogEntry["status"], attempts: number): DeliveryState {
  return status === "pending" && attempts > 0 ? "retrying" : status;
}

/** The application's webhook deliveries, newest first, in keyset pages (the dashboard's delivery log). */
export async function listDeliveries(input: { applicationId: string; cursor?: string; limit?: number; status?: "pending" | "succeeded" | "failed" }): Promise<{
  items: DeliveryLogEntry[];
  nextCursor: string | null;
}> {
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 100);
  const binding = { endpoint: "dashboard.webhook-deliveries", applicationId: input.applicationId, environment: "any" };
  const after = input.cursor ? decodeCursor<Position>(input.cursor, binding) : null;
  const rows = await db().webhookDelivery.findMany({
    where: {
      applicationId: input.applicationId,
      ...(input.status ? { status: input.status } : {}),
      ...(after ? { OR: [{ createdAt: { lt: new Date(after.c) } }, { createdAt: new Date(after.c), id: { lt: after.i } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    include: { event: { select: { type: true, environment: true } }, attemptLog: { orderBy: { attempt: "desc" }, take: 1, select: { latencyMs: true } } },
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => ({
      id: row.id,
      eventId: row.eventId,
      eventType: row.event.type,
      environment: row.event.environment,
      url: row.url,
      status: row.status,
      attempts: row.attempts,
      responseCode: row.responseCode,
      lastError: row.lastError,
      latencyMs: row.attemptLog[0]?.latencyMs ?? null,
      nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
      lastAttemptAt: row.lastAttemptAt,
      createdAt: row.createdAt,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor<Position>(binding, { c: last.createdAt.toISOString(), i: last.id }) : null,
  };
}

/** One delivery of the application with every attempt and the exact body sent; null for another application's. */
export async function getDelivery(applicationId: string, deliveryId: string) {
  // A malformed id (a NUL byte would make PostgreSQL refuse the query) names no delivery.
  if (!DELIVERY_ID.test(deliveryId)) return null;
  const row = await db().webhookDelivery.findFirst({
    where: { id: deliveryId, applicationId },
    include: {
      event: true,
      attemptLog: { orderBy: { attempt: "asc" }, select: { attempt: true, responseCode: true, latencyMs: true, responseExcerpt: true, error: true, createdAt: true } },
    },
  });
  if (!row) return null;
  return {
    id: row.id,
    status: row.status,
    url: row.url,
    attempts: row.attemptLog,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
    event: { id: row.event.id, type: row.event.type, environment: row.event.environment, createdAt: row.event.createdAt },
    payload: webhookPayload(row.event),
  };
}
