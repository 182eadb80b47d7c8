import { withTransaction, type Tx } from "@/lib/db";
import { NotFoundError, TeamError } from "@/lib/team";
import { recordAudit } from "@/lib/audit";
import { checkLiveWebhook, liveWebhookRefusal } from "./live-webhook-check";
import { operatorActor, requireOperator } from "./operator-role";
import { emailOwnersOfProductionDecision } from "./production-emails";
import { approveProductionInputSchema, refuseProductionInputSchema } from "./schemas";

/** The pending request, locked for the decision (two operators deciding at once: the second finds it decided). */
async function lockPendingRequest(tx: Tx, requestId: string) {
  const [row] = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "ProductionRequest" WHERE "id" = ${requestId} FOR UPDATE`;
  if (!row) throw new NotFoundError("The production request");
  const request = await tx.productionRequest.findUniqueOrThrow({ where: { id: requestId }, include: { application: { select: { id: true, status: true, redirectUrls: true } } } });
  if (request.status !== "pending") throw new TeamError("invalid_input", `This request was already ${request.status}.`);
  return request;
}

/**
 * Approves a pending production request (operators only): production turns on, the application's status moves
 * from `sandbox` to `active` (live keys authenticate from the next request on every instance: the Application
 * trigger drops cached keys), and the requested redirect URLs join the registered ones. A suspended application is
 * reinstated first, on purpose, so approval never quietly lifts a suspension. The webhook URL is checked by the live
 * rules at this moment: one they refuse blocks approval (every live event would fail); none at all does not (live
 * events are then not posted anywhere, which the operator's view says).
 */
export async function approveProductionRequest(operatorId: string, requestId: string, input: { note?: string } = {}): Promise<void> {
  const operator = await requireOperator(operatorId);
  const { note } = approveProductionInputSchema.parse(input);
  await withTransaction("ReadCommitted", async (tx) => {
    const request = await lockPendingRequest(tx, requestId);
    if (request.application.status === "suspended") throw new TeamError("invalid_input", "The application is suspended; reinstate it before approving production.");
    // The webhook URL as it is now (it may have changed since the request), with its row locked until the commit so
    // it cannot change between the check and the approval. The name is resolved here too: at most 3 seconds.
    const [application] = await tx.$queryRaw<{ webhookUrl: string | null }[]>`SELECT "webhookUrl" FROM "Application" WHERE "id" = ${request.applicationId} FOR UPDATE`;
    const webhook = await checkLiveWebhook(application?.webhookUrl ?? null);
    const refusal = liveWebhookRefusal(webhook);
    if (refusal) throw new TeamError("invalid_input", refusal);
    const now = new Date();
    await tx.productionRequest.update({ where: { id: request.id }, data: { status: "approved", decisionReason: note || null, decidedById: operator.id, decidedAt: now } });
    await tx.application.update({
      where: { id: request.applicationId },
      data: { productionEnabled: true, status: "active", redirectUrls: [...new Set([...request.application.redirectUrls, ...request.redirectUrls])] },
    });
    await recordAudit(tx, { action: "production.approve", actor: operatorActor(operator), applicationId: request.applicationId, targetType: "production_request", targetId: request.id, before: { status: "pending", productionEnabled: false }, after: { status: "approved", productionEnabled: true, note: note || null, webhookUrl: webhook.url } });
  });
  // The owners learn of it by email (after the commit; a delivery failure is logged, the approval stands).
  await emailOwnersOfProductionDecision(requestId);
}

/** Refuses a pending production request with a reason the developer reads on the settings page; they may ask again. */
export async function refuseProductionRequest(operatorId: string, requestId: string, input: { reason: string }): Promise<void> {
  const operator = await requireOperator(operatorId);
  const { reason } = refuseProductionInputSchema.parse(input);
  await withTransaction("ReadCommitted", async (tx) => {
    const request = await lockPendingRequest(tx, requestId);
    await tx.productionRequest.update({ where: { id: request.id }, data: { status: "refused", decisionReason: reason, decidedById: operator.id, decidedAt: new Date() } });
    await recordAudit(tx, { action: "production.refuse", actor: operatorActor(operator), applicationId: request.applicationId, targetType: "production_request", targetId: request.id, before: { status: "pending" }, after: { status: "refused", reason } });
  });
  await emailOwnersOfProductionDecision(requestId);
}
