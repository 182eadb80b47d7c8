import { guardedFetch, OutboundError } from "@/lib/outbound";
import { type HttpPolicy } from "./http-policy";
import { SourceError } from "./source-error";

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in milliseconds from now. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === "") return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Exponential backoff with full jitter: uniformly random up to base·2^retry, capped, so clients spread out. */
export function backoffMs(retry: number, policy: HttpPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Statuses whose Response may not carry a body. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

export type RetryOptions = {
  /** Names the request in errors, without its query or headers, which could carry tokens. */
  describe: string;
  /**
   * Whether a request that got no answer (timeout, network failure) is sent again. True for reads; false for
   * token requests, where the first attempt may have spent the code or rotated the refresh token unseen.
   */
  retryUnanswered: boolean;
  /**
   * A live provider's request: sent through lib/outbound's guarded fetch (public https addresses only, unless the
   * deployment names the host in CHARTKEY_PROVIDER_PRIVATE_HOSTS; redirects re-checked; the answer size capped).
   * Sandbox providers are this deployment's own synthetic health systems and are reached directly.
   */
  outbound?: boolean;
};

/** The largest answer taken from a live provider: a FHIR search page of 100 rich resources stays well below it. */
export const MAX_PROVIDER_ANSWER_BYTES = 32 * 1024 * 1024;

/** A request the outbound rules refused never reaches the provider, so retrying it cannot help. */
function refusal(error: OutboundError, describe: string): SourceError {
  if (error.kind === "too_large") return new SourceError("invalid_response", `${describe}: ${error.reason}.`);
  return new SourceError("provider_unavailable", `${describe} was refused by the outbound rules: ${error.reason}.`);
}

function send(url: string, init: RequestInit, policy: HttpPolicy, outbound: boolean): Promise<Response> {
  if (!outbound) return fetch(url, { ...init, signal: AbortSignal.timeout(policy.timeoutMs) });
  return guardedFetch(url, init, { timeoutMs: policy.timeoutMs, maxBytes: MAX_PROVIDER_ANSWER_BYTES });
}

/** An answer whose body was read within the request's timeout, as text. */
export type ReadAnswer = { status: number; ok: boolean; headers: Headers; text: string };

/**
 * `fetchAnswer` as a Response whose body can be read again, for a client library that takes a fetch function.
 */
export async function fetchWithRetries(url: string, init: RequestInit, policy: HttpPolicy, options: RetryOptions): Promise<Response> {
  const answer = await fetchAnswer(url, init, policy, options);
  return new Response(NULL_BODY_STATUSES.has(answer.status) ? null : answer.text, { status: answer.status, headers: answer.headers });
}

/**
 * One logical request with the policy's timeouts and retries: 429 and 5xx answers (and, for reads, timeouts and
 * network failures) are retried after exponential backoff with jitter, never sooner than the server's
 * Retry-After. Anything else (2xx, 3xx, 4xx) is returned for the caller to judge, its body already read within the
 * timeout. The body is kept as the text it was read as: a search page is megabytes, and a Response rebuilt from it
 * would encode it, copy it and decode it all over again to be parsed.
 */
export async function fetchAnswer(url: string, init: RequestInit, policy: HttpPolicy, options: RetryOptions): Promise<ReadAnswer> {
  let lastProblem = "";
  let lastStatus: number | undefined;
  for (let attempt = 0; attempt < policy.maxAttempts; attempt += 1) {
    let answer: { status: number; headers: Headers; body: string } | null = null;
    try {
      const response = await send(url, init, policy, options.outbound ?? false);
      answer = { status: response.status, headers: response.headers, body: await response.text() };
    } catch (error) {
      if (error instanceof OutboundError && error.kind !== "unanswered") throw refusal(error, options.describe);
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      lastProblem = error instanceof OutboundError ? error.reason : timedOut ? `timed out after ${policy.timeoutMs} ms` : "could not connect";
      lastStatus = undefined;
      if (!options.retryUnanswered) throw new SourceError("source_unavailable", `${options.describe} ${lastProblem}.`, { cause: error });
    }
    if (answer && !retryable(answer.status)) {
      return { status: answer.status, ok: answer.status >= 200 && answer.status < 300, headers: answer.headers, text: answer.body };
    }

    let wait = backoffMs(attempt, policy);
    if (answer) {
      lastStatus = answer.status;
      lastProblem = `answered ${answer.status}`;
      const retryAfter = retryAfterMs(answer.headers.get("retry-after"));
      if (retryAfter !== null) {
        if (retryAfter > policy.maxRetryAfterMs) {
          const code = answer.status === 429 ? "rate_limited" : "source_unavailable";
          throw new SourceError(code, `${options.describe} asked to wait ${Math.ceil(retryAfter / 1000)} s, longer than we wait.`, { status: answer.status });
        }
        wait = Math.max(wait, retryAfter);
      }
    }
    if (attempt + 1 < policy.maxAttempts) await sleep(wait);
  }
  const code = lastStatus === 429 ? "rate_limited" : "source_unavailable";
  throw new SourceError(code, `${options.describe} ${lastProblem}, ${policy.maxAttempts} times.`, { status: lastStatus });
}
