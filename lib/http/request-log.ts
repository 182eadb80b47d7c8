import type pg from "pg";
import { pgPool } from "@/lib/db";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";

export type RequestLogEntry = {
  requestId: string;
  apiKeyId: string | null;
  agentCredentialId: string | null;
  applicationId: string | null;
  environment: "sandbox" | "live" | null;
  conformanceRunId: string | null;
  method: string;
  route: string;
  /** The path as requested, without the query string (which may carry cursors). */
  path: string;
  subjectId: string | null;
  status: number;
  /** The error envelope's `code` when the request was answered with an error. */
  errorCode?: string | null;
  /** The request carried a `cursor` query parameter (a later page of a walk). */
  withCursor?: boolean;
  latencyMs: number;
  createdAt: Date;
};

const FLUSH_INTERVAL_MS = 500;
const MAX_BATCH = 500;

// One queue per process: the launcher flushes it at shutdown.
type Queue = { buffer: RequestLogEntry[]; timer: NodeJS.Timeout | null; inFlight: Promise<void> };
const queue = processState<Queue>("http.request-log", () => ({ buffer: [], timer: null, inFlight: Promise.resolve() }));

/**
 * Queues a keyed request for the RequestLog table. Rows are written in batches off the request path; losing the
 * last half second of rows in a crash is acceptable for usage charts, and the conformance grader reads them after
 * the run's requests have settled.
 */
export function recordRequest(entry: RequestLogEntry): void {
  queue.buffer.push(entry);
  if (queue.buffer.length >= MAX_BATCH) void flushRequestLog();
  else if (!queue.timer) {
    queue.timer = setTimeout(() => void flushRequestLog(), FLUSH_INTERVAL_MS);
    queue.timer.unref();
  }
}

/** Writes every queued row now; tests and graceful shutdown call it. */
export function flushRequestLog(): Promise<void> {
  if (queue.timer) {
    clearTimeout(queue.timer);
    queue.timer = null;
  }
  const batch = queue.buffer;
  queue.buffer = [];
  queue.inFlight = queue.inFlight.then(async () => {
    if (batch.length === 0) return;
    try {
      await pgPool().query(insertRows(batch));
    } catch (error) {
      log.warn({ err: (error as Error).message, rows: batch.length }, "request log batch dropped");
    }
  });
  return queue.inFlight;
}

/**
 * One INSERT for the whole batch, a column per array (`unnest`), through pg directly: the statement text is the
 * same for any batch size, so it is prepared once per connection. Times are stored as UTC wall-clock in
 * timestamp(3), as Prisma stores DateTime (the Z in the ISO string is ignored by the cast).
 */
function insertRows(rows: readonly RequestLogEntry[]): pg.QueryConfig {
  const column = <T>(pick: (row: RequestLogEntry) => T) => rows.map(pick);
  return {
    name: "chartkey-request-log-insert",
    text: `INSERT INTO "RequestLog" ("requestId", "apiKeyId", "agentCredentialId", "applicationId", "environment", "conformanceRunId",
             "method", "route", "subjectId", "status", "latencyMs", "createdAt", "errorCode", "path", "withCursor")
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::"Environment"[], $6::text[],
             $7::text[], $8::text[], $9::text[], $10::int[], $11::int[], $12::timestamp(3)[], $13::text[], $14::text[], $15::boolean[])`,
    values: [
      column((row) => row.requestId),
      column((row) => row.apiKeyId),
      column((row) => row.agentCredentialId),
      column((row) => row.applicationId),
      column((row) => row.environment),
      column((row) => row.conformanceRunId),
      column((row) => row.method),
      column((row) => row.route),
      column((row) => row.subjectId),
      column((row) => row.status),
      column((row) => row.latencyMs),
      column((row) => row.createdAt.toISOString()),
      column((row) => row.errorCode ?? null),
      column((row) => row.path),
      column((row) => row.withCursor ?? false),
    ],
  };
}
