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
 * A fetch that retries 429 answers after the Retry-After the API sent (seconds; a little extra covers clock
 * granularity), or with exponential backoff from 500 ms when it sent none. Every attempt sends a clone of the same
 * request, so a create carries the same Idempotency-Key each time and the API answers a retry with the first result.
 */
export function retryingFetch(inner: typeof fetch, options: RetryOptions): (request: Request) => Promise<Response> {
  const sleep = options.sleep ?? sleepFor;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const response = await inner(request.clone());
      if (response.status !== 429 || attempt >= options.maxRetries) return response;
      const retryAfter = parseRetryAfterSeconds(response.headers.get("retry-after"));
      const waitMs = retryAfter === null ? 500 * 2 ** attempt : retryAfter * 1000 + 50;
      if (waitMs > options.maxRetryDelayMs) return response;
      await response.body?.cancel();
      await sleep(waitMs);
    }
  };
}
