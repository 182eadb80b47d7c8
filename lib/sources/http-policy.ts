/**
 * How hard the SMART client tries. Deployment defaults; tests and jobs may pass their own (a job with a deadline
 * waits less, a test retries sooner).
 */
export type HttpPolicy = {
  /** Per request, including reading its body. */
  timeoutMs: number;
  /** Tries per request, the first included. */
  maxAttempts: number;
  /** The first backoff's ceiling; each retry doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After beyond this is not waited for: the request fails as rate_limited and the job retries later. */
  maxRetryAfterMs: number;
};

export const DEFAULT_HTTP_POLICY: HttpPolicy = {
  timeoutMs: 15_000,
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};
