import pino from "pino";
import { processState } from "@/lib/process-state";

// Standard output, written asynchronously: each line is handed to a write that completes off the event loop, and
// lines arriving meanwhile are joined into the next write, so a busy server does not stop for one blocking write
// system call per request. pino registers a synchronous write of whatever is still queued when the process exits;
// graceful shutdown also flushes first (flushLog). One destination per process: lines must not interleave mid-write.
const destination = processState("log.destination", () => pino.destination({ dest: 1, sync: false }));

/**
 * The process logger: one JSON line per event. Never pass keys, tokens, secrets or record contents; the redact
 * list is a second line of defence for header objects that reach a log by mistake.
 */
export const log = pino(
  {
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
    base: { service: "chartkey" },
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
