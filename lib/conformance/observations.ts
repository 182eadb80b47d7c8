import { operationName } from "@/lib/api";
import { getConsentReceiptOperation } from "@/lib/consent";
import { createConnectSessionOperation } from "@/lib/connect";
import { db } from "@/lib/db";
import { flushRequestLog } from "@/lib/http";
import { getHealthRecordOperation, listCategoryRecordsOperation, listRecordChangesOperation } from "@/lib/users";

/** The request log's names of the operations the grader reads. */
export const ROUTES = {
  snapshot: operationName(getHealthRecordOperation),
  category: operationName(listCategoryRecordsOperation),
  changes: operationName(listRecordChangesOperation),
  createSession: operationName(createConnectSessionOperation),
  receipt: operationName(getConsentReceiptOperation),
} as const;

const RECORD_ROUTES: readonly string[] = [ROUTES.snapshot, ROUTES.category, ROUTES.changes];

/** One request the run key made, as the request log holds it, with the time the request arrived. */
export type ObservedRequest = {
  requestId: string;
  route: string;
  /** The path as requested, without its query string. */
  path: string;
  subjectId: string | null;
  status: number;
  errorCode: string | null;
  /** The request carried a cursor: a later page of a walk (or the change feed), not a read from the start. */
  withCursor: boolean;
  /** When the answer was written. */
  at: number;
  /** When the request arrived: the answer's time less its latency. */
  startedAt: number;
};

export const isRecordRead = (request: ObservedRequest) => RECORD_ROUTES.includes(request.route);
export const succeeded = (request: ObservedRequest) => request.status >= 200 && request.status < 300;

/**
 * A read of the subject's records from the start: the snapshot, or a category's first page (no cursor). After a
 * change, such a read is the re-read the change feed exists to avoid; a later page of a walk begun earlier is not.
 */
export const isFullRead = (request: ObservedRequest) => request.route === ROUTES.snapshot || (request.route === ROUTES.category && !request.withCursor);

/** The category a category page or change-feed read names (from its path), null for any other request. */
export function categoryOf(request: ObservedRequest): string | null {
  if (request.route !== ROUTES.category && request.route !== ROUTES.changes) return null;
  const match = /\/records\/([^/]+)(?:\/changes)?$/.exec(request.path);
  return match ? decodeURIComponent(match[1]!) : null;
}

/**
 * The run key's requests so far, oldest first. This process's queued log rows are written first; rows of other
 * instances arrive within their flush interval, which grading waits out (SETTLE_MS) before it reads.
 */
export async function observedRequests(runId: string): Promise<ObservedRequest[]> {
  await flushRequestLog();
  const rows = await db().requestLog.findMany({
    where: { conformanceRunId: runId },
    orderBy: { createdAt: "asc" },
    select: { requestId: true, route: true, path: true, subjectId: true, status: true, errorCode: true, withCursor: true, latencyMs: true, createdAt: true },
  });
  return rows
    .map((row) => ({
      requestId: row.requestId,
      route: row.route,
      path: row.path ?? "",
      subjectId: row.subjectId,
      status: row.status,
      errorCode: row.errorCode,
      withCursor: row.withCursor,
      at: row.createdAt.getTime(),
      startedAt: row.createdAt.getTime() - row.latencyMs,
    }))
    .sort((a, b) => a.startedAt - b.startedAt);
}
