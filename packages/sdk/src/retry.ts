import { parseRetryAfterSeconds } from "./errors.js";

export type RetryOptions = {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries: number;
  /** The longest single wait; a Retry-After beyond it is not waited for (the 429 is returned). */
  maxRetryDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
};

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Whether an answer is worth sending again: a 429 (rate limited) or a 503 (nothing was done: the database or an
 * authority did not answer, retry later) for any request, and a 500, 502 or 504 for a read only (a write that failed
 * there may have happened; creates that carry an Idempotency-Key are safe to resend, but the caller decides).
 */
export function isRetryable(status: number, method: string): boolean {
  if (status === 429 || status === 503) return true;
  return (method === "GET" || method === "HEAD") && (status === 500 || status === 502 || status === 504);
}

/**
 * A fetch that retries retryable answers (isRetryable) after the Retry-After the API sent (seconds; a little extra
 * covers clock granularity), or with exponential backoff from 500 ms when it sent none. Every attempt sends a clone of
 * the same request, so a create carries the same Idempotency-Key each time and the API answers a retry with the first
 * result.
 */
export function retryingFetch(inner: typeof fetch, options: RetryOptions): (request: Request) => Promise<Response> {
  const sleep = options.sleep ?? sleepFor;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const response = await inner(request.clone());
      if (!isRetryable(response.status, request.method) || attempt >= options.maxRetries) return response;
      const retryAfter = parseRetryAfterSeconds(response.headers.get("retry-after"));
      const waitMs = retryAfter === null ? 500 * 2 ** attempt : retryAfter * 1000 + 50;
      if (waitMs > options.maxRetryDelayMs) return response;
      await response.body?.cancel();
      await sleep(waitMs);
    }
  };
}
