import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseTimeout } from "@/lib/db";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { newId } from "@/lib/ids";
import { ApiError } from "./api-error";
import { HEADER } from "./headers";

/** A handler's JSON answer; the pipeline adds the family's headers and the operation's content type. */
export type RouteResult = {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** What an idempotent replay answers instead of `body`, when the body holds a secret shown once and never stored. */
  replayBody?: unknown;
};

export function newRequestId(): string {
  return newId("req_");
}

/**
 * Anything thrown, as the error the spec's envelope carries: an ApiError as it is, a database that did not answer
 * within its bound (lib/db/timeouts.ts) as 503 `database_unavailable` with Retry-After, anything else as 500
 * `database_error` or `internal_error`; logged once with the request id and never leaking internals.
 */
export function toApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseTimeout(error)) {
    log.warn({ requestId, err: describe(error) }, "database did not answer in time");
    metrics().databaseTimeouts.inc();
    return new ApiError("database_unavailable", "The database did not answer in time; retry with backoff.", {
      headers: { [HEADER.retryAfter]: String(DATABASE_RETRY_AFTER_SECONDS) },
    });
  }
  if (isDatabaseError(error)) {
    log.error({ requestId, err: describe(error) }, "database error");
    return new ApiError("database_error", "The request could not be completed; retry with backoff.");
  }
  log.error({ requestId, err: describe(error) }, "unexpected error");
  return new ApiError("internal_error", "An unexpected error occurred; retry with backoff.");
}

/** A Prisma, driver or node-postgres failure: the database refused, could not be reached or did not answer in time. */
export function isDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (isDatabaseTimeout(error)) return true;
  if (error.name.startsWith("PrismaClient") || error.name === "DriverAdapterError") return true;
  const code = (error as { code?: unknown }).code;
  // node-postgres errors carry a five-character SQLSTATE; connection failures carry ECONNREFUSED and the like.
  return (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) || code === "ECONNREFUSED" || code === "ECONNRESET";
}

function describe(error: unknown): { name: string; message: string; stack?: string } {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: "NonError", message: String(error) };
}
