import { operationName } from "@/lib/api";
import { createConnectSession } from "@/lib/connect";
import { db } from "@/lib/db";
import { flushRequestLog } from "@/lib/http";
import { getHealthRecord, listCategoryRecords, listRecordChanges } from "@/lib/users";

/** The request log's names of the operations the grader reads. */
export const ROUTES = {
  snapshot: operationName(getHealthRecord),
  category: operationName(listCategoryRecords),
  changes: operationName(listRecordChanges),
  createSession: operationName(createConnectSession),
} as const;

const RECORD_ROUTES: readonly string[] = [ROUTES.snapshot, ROUTES.category, ROUTES.changes];

/** One request the run key made, as the request log holds it, with the time the request arrived. */
export type ObservedRequest = {
  requestId: string;
  route: string;
  subjectId: string | null;
  status: number;
  errorCode: string | null;
  /** When the answer was written. */
  at: number;
  /** When the request arrived: the answer's time less its latency. */
  startedAt: number;
};

export const isRecordRead = (request: ObservedRequest) => RECORD_ROUTES.includes(request.route);
export const succeeded = (request: ObservedRequest) => request.status >= 200 && request.status < 300;

/**
 * The run key's requests so far, oldest first. This process's queued log rows are written first; rows of other
 * instances arrive within their flush interval, which grading waits out (SETTLE_MS) before it reads.
 */
export async function observedRequests(runId: string): Promise<ObservedRequest[]> {
  await flushRequestLog();
  const rows = await db().requestLog.findMany({
    where: { conformanceRunId: runId },
    orderBy: { createdAt: "asc" },
    select: { requestId: true, route: true, subjectId: true, status: true, errorCode: true, latencyMs: true, createdAt: true },
  });
  return rows
    .map((row) => ({
      requestId: row.requestId,
      route: row.route,
      subjectId: row.subjectId,
      status: row.status,
      errorCode: row.errorCode,
      at: row.createdAt.getTime(),
      startedAt: row.createdAt.getTime() - row.latencyMs,
    }))
    .sort((a, b) => a.startedAt - b.startedAt);
}
