import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { stopSender } from "@/lib/queue";
import { createTestApplication } from "@/test/factories";
import { getDelivery, listDeliveries } from "./delivery-log";

afterAll(() => stopSender());

describe("the webhook delivery log", () => {
  it("pages the application's deliveries newest first with their latest attempt, and never another application's", async () => {
    const { application } = await createTestApplication({ webhookUrl: "http://127.0.0.1:9/none" });
    const other = await createTestApplication({ webhookUrl: "http://127.0.0.1:9/none" });
    const events = [];
    for (let i = 0; i < 3; i++) {
      events.push(await recordEvent({ applicationId: application.id, environment: "sandbox", type: "consent.granted", data: { n: i } }));
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const otherEvent = await recordEvent({ applicationId: other.application.id, environment: "sandbox", type: "webhook.test", data: {} });
    const first = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: events[0]!.id } });
    await db().webhookDelivery.update({ where: { id: first.id }, data: { status: "failed", attempts: 1, responseCode: 500 } });
    await db().webhookDeliveryAttempt.create({ data: { id: "wha_logtest", deliveryId: first.id, attempt: 1, responseCode: 500, latencyMs: 42, responseExcerpt: "no" } });

    const pageOne = await listDeliveries({ applicationId: application.id, limit: 2 });
    const pageTwo = await listDeliveries({ applicationId: application.id, limit: 2, cursor: pageOne.nextCursor! });
    expect([...pageOne.items, ...pageTwo.items].map((item) => item.eventId)).toEqual([events[2]!.id, events[1]!.id, events[0]!.id]);
    expect(pageTwo.nextCursor).toBeNull();
    expect(pageTwo.items[0]).toMatchObject({ status: "failed", responseCode: 500, latencyMs: 42, attempts: 1, eventType: "consent.granted", nextAttemptAt: null });

    const detail = await getDelivery(application.id, first.id);
    expect(detail?.attempts).toEqual([expect.objectContaining({ attempt: 1, responseCode: 500, latencyMs: 42 })]);
    expect(JSON.parse(detail!.payload)).toMatchObject({ id: events[0]!.id, type: "consent.granted", data: { n: 0 } });
    expect(await getDelivery(other.application.id, first.id)).toBeNull();
    // Hostile ids from the dashboard's URL name no delivery instead of failing the query (PostgreSQL refuses NUL).
    for (const hostile of ["whd_\u0000", `${first.id}\u0000`, "' OR 1=1 --"]) expect(await getDelivery(application.id, hostile)).toBeNull();
    const otherDelivery = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: otherEvent.id } });
    expect((await listDeliveries({ applicationId: application.id })).items.map((item) => item.id)).not.toContain(otherDelivery.id);
  });
});
