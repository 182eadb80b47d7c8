import { ApiError } from "./api-error";
import { errorTypeForStatus } from "./error-codes";

export type ErrorEnvelope = {
  error: { type: "api_error" | "invalid_request_error"; code: string; message: string; requestId: string };
};

export function errorEnvelope(error: ApiError, requestId: string): ErrorEnvelope {
  return { error: { type: errorTypeForStatus(error.status), code: error.code, message: error.message, requestId } };
}

/** The spec's error envelope as a Response, with the error's own headers (Retry-After and the like). */
export function errorResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}): Response {
  return Response.json(errorEnvelope(error, requestId), {
    status: error.status,
    headers: { ...headers, ...error.headers, "Cache-Control": "no-store" },
  });
}
