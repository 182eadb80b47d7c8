import { db } from "@/lib/db";
import { observedRequests, type ObservedRequest } from "./observations";
import type { RunRow } from "./run-row";

/** An event the run's subject caused, with the answers its deliveries got. */
export type ObservedEvent = {
  type: "consent.revoked" | "records.updated";
  /** When the event was written (in the transaction that made the change). */
  createdAt: number;
  /** Each delivery attempt: the receiver's status (null without an HTTP answer) and when the attempt ended. */
  attempts: { status: number | null; endedAt: number }[];
};

/** What the run saw, gathered once so that every grader is a pure function of it. */
export type RunFacts = {
  run: RunRow;
  session: { status: string; createdAt: number; simulationState: string | null; grantedCategories: string[] } | null;
  requests: ObservedRequest[];
  events: ObservedEvent[];
  /** The subject's receipts: their ids (a receipt read names one in its path) and when each was revoked. */
  receipts: { id: string; revokedAt: number | null }[];
};

const EVENT_TYPES: ObservedEvent["type"][] = ["consent.revoked", "records.updated"];

/**
 * Reads the run's facts: the run key's requests, its Connect session, the subject's consent.revoked and
 * records.updated events with every delivery attempt's answer, and the subject's receipts. The subject is the run's
 * own synthetic patient, so each of these is the run's doing.
 */
export async function observeRun(run: RunRow): Promise<RunFacts> {
  const [requests, session, events, receipts] = await Promise.all([
    observedRequests(run.id),
    run.connectSessionId
      ? db().connectSession.findUnique({ where: { id: run.connectSessionId }, select: { status: true, createdAt: true, simulationState: true, grantedCategories: true } })
      : null,
    run.subjectId
      ? db().event.findMany({
          where: { applicationId: run.applicationId, type: { in: EVENT_TYPES }, data: { path: ["subject"], equals: run.subjectId } },
          select: { type: true, createdAt: true, deliveries: { select: { attemptLog: { select: { responseCode: true, createdAt: true } } } } },
          orderBy: { createdAt: "asc" },
        })
      : [],
    run.subjectId ? db().consentReceipt.findMany({ where: { subjectId: run.subjectId }, select: { id: true, revokedAt: true } }) : [],
  ]);
  return {
    run,
    session: session && { status: session.status, createdAt: session.createdAt.getTime(), simulationState: session.simulationState, grantedCategories: session.grantedCategories },
    requests,
    events: events.map((event) => ({
      type: event.type as ObservedEvent["type"],
      createdAt: event.createdAt.getTime(),
      // An attempt's log row is written once its answer (or its failure) is known: its time is the attempt's end.
      attempts: event.deliveries.flatMap((delivery) => delivery.attemptLog.map((attempt) => ({ status: attempt.responseCode, endedAt: attempt.createdAt.getTime() }))),
    })),
    receipts: receipts.map((receipt) => ({ id: receipt.id, revokedAt: receipt.revokedAt?.getTime() ?? null })),
  };
}
