import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { LifecycleCycle } from "@/lib/jobs";
import { QUEUE } from "@/lib/queue";
import { enqueueDelivery } from "./deliver";
import { deliveryPolicy } from "./policy";

/**
 * Re-sends the job of every pending delivery that is due and has no live job: the process crashed between the
 * commit and the send, the send failed, or the worker died mid-attempt (its claim's lease has passed and its job
 * has been active longer than the lease). An interrupted attempt is logged as such; a delivery whose interrupted
 * attempt was its last ends `failed`.
 */
export async function redispatchDeliveries(now: Date, limit = 1000): Promise<number> {
  const policy = deliveryPolicy();
  // Before any worker has started, pg-boss has not created its schema and no job can exist.
  const [queue] = await db().$queryRaw<{ present: boolean }[]>`SELECT to_regclass('pgboss.job') IS NOT NULL AS present`;
  if (!queue?.present) return 0;
  const leaseStart = new Date(now.getTime() - policy.leaseMs);
  const due = await db().$queryRaw<{ id: string; attempts: number }[]>`
    SELECT d.id, d.attempts FROM "WebhookDelivery" d
    WHERE d.status = 'pending' AND d."nextAttemptAt" <= ${now}
      AND NOT EXISTS (
        SELECT 1 FROM pgboss.job j
        WHERE j.name = ${QUEUE.webhookDelivery} AND j.singleton_key = d.id
          AND (j.state IN ('created', 'retry') OR (j.state = 'active' AND j.started_on > ${leaseStart}))
      )
    ORDER BY d."nextAttemptAt" LIMIT ${limit}`;
  for (const delivery of due) {
    if (delivery.attempts > 0) {
      // The claimed attempt never logged an outcome: its worker died. Log it, so the dashboard shows the gap.
      await db().$executeRaw`
        INSERT INTO "WebhookDeliveryAttempt" (id, "deliveryId", attempt, "latencyMs", error)
        VALUES (${newId("wha_")}, ${delivery.id}, ${delivery.attempts}, 0, 'interrupted: the worker stopped during the attempt')
        ON CONFLICT ("deliveryId", attempt) DO NOTHING`;
    }
    if (delivery.attempts >= policy.maxAttempts) {
      await db().webhookDelivery.updateMany({
        where: { id: delivery.id, status: "pending", attempts: delivery.attempts },
        data: { status: "failed", lastError: "interrupted", nextAttemptAt: null },
      });
    } else {
      await enqueueDelivery({ deliveryId: delivery.id, attempt: delivery.attempts + 1 });
    }
  }
  return due.length;
}

export const redispatchWebhookDeliveries: LifecycleCycle = {
  name: "redispatch-webhook-deliveries",
  run: (now) => redispatchDeliveries(now),
};
