import { ERROR_STATUS, type ErrorCode } from "./error-codes";

/**
 * The one error type route code throws. Status comes from the code table; `headers` carries extras such as
 * `Retry-After` on 429, and `status` may be overridden only where the spec allows a code under another status
 * (invalid_request as 403/415).
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { headers?: Record<string, string>; status?: number } = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.headers = options.headers ?? {};
  }
}
