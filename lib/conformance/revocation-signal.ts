import { db } from "@/lib/db";
import { isRecordRead, type ObservedRequest } from "./observations";
import type { RunRow } from "./run-row";

export type RevocationSignal = { at: number; by: "webhook" | "not_found"; requestId: string | null };

/**
 * When the integration was told of the revocation: the start of the delivery attempt of the subject's
 * consent.revoked webhook, or the answer to its first read of the subject refused 404 after the revocation,
 * whichever came first. A read that was already under way then is not held against it.
 */
export async function revocationSignal(run: RunRow, requests: ObservedRequest[]): Promise<RevocationSignal | null> {
  if (!run.revokedAt || !run.subjectId) return null;
  // The claim time the delivery job wrote (lastAttemptAt): after a retry it is the latest attempt's, which only
  // moves the signal later, in the integration's favour.
  const deliveries = await db().webhookDelivery.findMany({
    where: {
      applicationId: run.applicationId,
      attempts: { gte: 1 },
      // The subject is the run's own synthetic patient: its only consent.revoked is the run's revocation.
      event: { type: "consent.revoked", data: { path: ["subject"], equals: run.subjectId } },
    },
    select: { lastAttemptAt: true },
  });
  const webhookAt = Math.min(...deliveries.flatMap((delivery) => (delivery.lastAttemptAt ? [delivery.lastAttemptAt.getTime()] : [])));
  const refused = requests.find((request) => isRecordRead(request) && request.subjectId === run.subjectId && request.startedAt >= run.revokedAt!.getTime() && request.status === 404);
  const candidates: RevocationSignal[] = [];
  if (Number.isFinite(webhookAt)) candidates.push({ at: webhookAt, by: "webhook", requestId: null });
  if (refused) candidates.push({ at: refused.at, by: "not_found", requestId: refused.requestId });
  return candidates.sort((a, b) => a.at - b.at)[0] ?? null;
}
