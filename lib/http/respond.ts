import { log } from "@/lib/log";
import { newId } from "@/lib/ids";
import { ApiError } from "./api-error";
import { errorResponse } from "./error-response";
import { HEADER } from "./headers";

export type RouteResult = { status?: number; body: unknown; headers?: Record<string, string> };

export function newRequestId(): string {
  return newId("req_");
}

/**
 * Runs a handler and always answers: its result as JSON, an ApiError as the spec's envelope, and anything else
 * as 500 `database_error` or `internal_error`, logged once with the request id and never leaking internals.
 * `headers` are put on every outcome (request id, version, rate-limit fields); they are read after `run`, so
 * fields the run adds (the rate-limit state) reach the response too.
 */
export async function respond(
  requestId: string,
  headers: Record<string, string>,
  run: () => Promise<RouteResult | Response>,
): Promise<Response> {
  const base = () => ({ [HEADER.requestId]: requestId, ...headers });
  try {
    const result = await run();
    if (result instanceof Response) {
      for (const [name, value] of Object.entries(base())) result.headers.set(name, value);
      return result;
    }
    return Response.json(result.body, { status: result.status ?? 200, headers: { ...base(), ...result.headers } });
  } catch (error) {
    return errorResponse(toApiError(error, requestId), requestId, base());
  }
}

export function toApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseError(error)) {
    log.error({ requestId, err: describe(error) }, "database error");
    return new ApiError("database_error", "The request could not be completed; retry with backoff.");
  }
  log.error({ requestId, err: describe(error) }, "unexpected error");
  return new ApiError("internal_error", "An unexpected error occurred; retry with backoff.");
}

function isDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name.startsWith("PrismaClient") || error.name === "DriverAdapterError") return true;
  const code = (error as { code?: unknown }).code;
  // node-postgres errors carry a five-character SQLSTATE; connection failures carry ECONNREFUSED and the like.
  return (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) || code === "ECONNREFUSED" || code === "ECONNRESET";
}

function describe(error: unknown): { name: string; message: string; stack?: string } {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: "NonError", message: String(error) };
}
