import { db } from "@/lib/db";
import { log } from "@/lib/log";

export type RequestLogEntry = {
  requestId: string;
  apiKeyId: string | null;
  agentCredentialId: string | null;
  applicationId: string | null;
  environment: "sandbox" | "live" | null;
  conformanceRunId: string | null;
  method: string;
  route: string;
  subjectId: string | null;
  status: number;
  latencyMs: number;
  createdAt: Date;
};

const FLUSH_INTERVAL_MS = 500;
const MAX_BATCH = 500;

let buffer: RequestLogEntry[] = [];
let timer: NodeJS.Timeout | null = null;
let inFlight: Promise<void> = Promise.resolve();

/**
 * Queues a keyed request for the RequestLog table. Rows are written in batches off the request path; losing the
 * last half second of rows in a crash is acceptable for usage charts, and the conformance grader reads them after
 * the run's requests have settled.
 */
export function recordRequest(entry: RequestLogEntry): void {
  buffer.push(entry);
  if (buffer.length >= MAX_BATCH) void flushRequestLog();
  else if (!timer) {
    timer = setTimeout(() => void flushRequestLog(), FLUSH_INTERVAL_MS);
    timer.unref();
  }
}

/** Writes every queued row now; tests and graceful shutdown call it. */
export function flushRequestLog(): Promise<void> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  const batch = buffer;
  buffer = [];
  inFlight = inFlight.then(async () => {
    if (batch.length === 0) return;
    try {
      await db().requestLog.createMany({ data: batch });
    } catch (error) {
      log.warn({ err: (error as Error).message, rows: batch.length }, "request log batch dropped");
    }
  });
  return inFlight;
}
