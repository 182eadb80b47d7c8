import { ERROR_STATUS, type ErrorCode } from "./error-codes.js";

/** The error envelope every non-2xx answer of the API carries. */
export type ErrorEnvelope = { error: { type: "api_error" | "invalid_request_error"; code: string; message: string; requestId: string } };

/**
 * An error answer of the API. Branch on `code` (typed with every code the API documents); a code this SDK version does
 * not know yet is still passed through as a string, so handle the rest by `status`.
 */
export class ChartkeyError extends Error {
  override readonly name = "ChartkeyError";
  readonly status: number;
  readonly code: ErrorCode | (string & {});
  readonly type: "api_error" | "invalid_request_error";
  /** Quote it in support requests; also in the Request-Id header. */
  readonly requestId: string | null;
  /** Seconds the API asked to wait (429 and some 503 answers), when it said. */
  readonly retryAfter: number | null;

  constructor(status: number, envelope: ErrorEnvelope["error"] | null, retryAfter: number | null = null) {
    super(envelope?.message ?? `HTTP ${status} without an error envelope`);
    this.status = status;
    this.code = envelope?.code ?? (status >= 500 ? "internal_error" : "invalid_request");
    this.type = envelope?.type ?? (status >= 500 ? "api_error" : "invalid_request_error");
    this.requestId = envelope?.requestId ?? null;
    this.retryAfter = retryAfter;
  }

  /** Narrows to one documented code: `if (error.is("invalid_cursor")) ...`. */
  is<C extends ErrorCode>(code: C): this is ChartkeyError & { code: C } {
    return this.code === code;
  }
}

/** Whether `value` is an API error with `code`; for `catch (error)` blocks. */
export function isChartkeyError<C extends ErrorCode>(value: unknown, code?: C): value is ChartkeyError & { code: C } {
  return value instanceof ChartkeyError && (code === undefined || value.code === code);
}

/** The HTTP status the API answers a documented code with. */
export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

/** Builds the typed error from an answer openapi-fetch left as `error`. */
export function toChartkeyError(response: Response, body: unknown): ChartkeyError {
  const envelope = isEnvelope(body) ? body.error : fromOperationOutcome(response, body);
  return new ChartkeyError(response.status, envelope, parseRetryAfterSeconds(response.headers.get("retry-after")));
}

/** The FHIR API's errors are OperationOutcome resources carrying the code in issue.details. */
function fromOperationOutcome(response: Response, body: unknown): ErrorEnvelope["error"] | null {
  const outcome = body as { resourceType?: unknown; issue?: { diagnostics?: string; details?: { coding?: { code?: string }[] } }[] } | null;
  const code = outcome?.resourceType === "OperationOutcome" ? outcome.issue?.[0]?.details?.coding?.[0]?.code : undefined;
  if (typeof code !== "string") return null;
  return {
    type: response.status >= 500 ? "api_error" : "invalid_request_error",
    code,
    message: outcome!.issue?.[0]?.diagnostics ?? code,
    requestId: response.headers.get("request-id") ?? "",
  };
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string";
}

/** Retry-After is seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
