import pino from "pino";
import { processState } from "@/lib/process-state";
import { traceLogFields } from "@/lib/tracing";

/** Log lines are written once this much has gathered, or after LOG_BATCH_MS, whichever comes first. */
export const LOG_BATCH_BYTES = 4096;
export const LOG_BATCH_MS = 100;

// Standard output, written asynchronously and in batches: lines are held until LOG_BATCH_BYTES have gathered or
// LOG_BATCH_MS have passed, then written together by a write that completes off the event loop. One write per line
// (a trip through libuv's thread pool per request) cost the server more CPU than the rest of a health check
// (docs/operations.md, "What to monitor"). pino registers a synchronous write of whatever is still held when the
// process exits; graceful shutdown also flushes first (flushLog). One destination per process: lines must not
// interleave mid-write.
const destination = processState("log.destination", () => pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_BATCH_MS }));

/**
 * The process logger: one JSON line per event. Never pass keys, tokens, secrets or record contents; the redact
 * list is a second line of defence for header objects that reach a log by mistake.
 */
export const log = pino(
  {
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
    base: { service: "chartkey" },
    // Within a traced request or job, each line carries its trace_id and span_id (nothing when tracing is off).
    mixin: traceLogFields,
    redact: {
      paths: ["authorization", "headers.authorization", "*.authorization", "apiKey", "token", "secret", "password"],
      censor: "[redacted]",
    },
  },
  destination,
);

/** Hands every queued log line to the destination; graceful shutdown calls it before the process exits. */
export function flushLog(): Promise<void> {
  return new Promise((resolve) => destination.flush(() => resolve()));
}

/**
 * A failure as an operator reads it: the error's stack (or, for a thrown non-error such as `undefined`, what was
 * thrown, said in words) followed by each `cause` in turn, so a launcher's last line names what went wrong.
 */
export function describeFailure(failure: unknown): string {
  const lines: string[] = [];
  const seen = new Set<unknown>();
  for (let current = failure; current !== undefined && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    const text = current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : `a non-error value was thrown: ${String(current)}`;
    lines.push(lines.length === 0 ? text : `caused by: ${text}`);
    if (current === null || typeof current !== "object") break;
  }
  return lines.join("\n") || "a failure without any detail (undefined was thrown)";
}
