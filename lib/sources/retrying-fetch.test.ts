import { describe, expect, it } from "vitest";
import { listenOnFreePort } from "@/test/raw-http";
import type { HttpPolicy } from "./http-policy";
import { backoffMs, fetchAnswer, fetchWithRetries, retryAfterMs } from "./retrying-fetch";
import { SourceError } from "./source-error";

// A generous timeout, so a loaded machine's slow local answer is never taken for a lost one; the timeout test
// shortens it on purpose.
const POLICY: HttpPolicy = { timeoutMs: 5_000, maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 40, maxRetryAfterMs: 2_000 };
const READ = { describe: "The test read", retryUnanswered: true };

describe("Retry-After and backoff", () => {
  it("reads delta-seconds and HTTP dates, and ignores anything else", () => {
    const now = Date.parse("2026-05-01T12:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("Fri, 01 May 2026 12:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("Fri, 01 May 2026 11:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it("backs off exponentially with full jitter, capped", () => {
    const policy = { ...POLICY, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect(backoffMs(0, policy, () => 0.999)).toBe(99);
    expect(backoffMs(2, policy, () => 0.999)).toBe(399);
    expect(backoffMs(8, policy, () => 0.999)).toBe(999);
    expect(backoffMs(3, policy, () => 0)).toBe(0);
  });
});

/** A server answering each request with the next of `answers` (the last one repeats). */
async function scriptedServer(answers: { status: number; headers?: Record<string, string>; delayMs?: number }[]) {
  let count = 0;
  const server = await listenOnFreePort((_req, res) => {
    const answer = answers[Math.min(count, answers.length - 1)]!;
    count += 1;
    setTimeout(() => {
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(`answer ${count}`);
    }, answer.delayMs ?? 0);
  });
  return { ...server, url: `http://127.0.0.1:${server.port}/x`, requests: () => count };
}

describe("fetchWithRetries", () => {
  it("retries 5xx and 429 and returns the first other answer with its body readable", async () => {
    const server = await scriptedServer([{ status: 503 }, { status: 429, headers: { "Retry-After": "0" } }, { status: 200 }]);
    try {
      const response = await fetchWithRetries(server.url, {}, POLICY, READ);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("answer 3");
      expect(server.requests()).toBe(3);
    } finally {
      await server.close();
    }
  });

  it("returns a 4xx at once, for the caller to judge", async () => {
    const server = await scriptedServer([{ status: 404 }, { status: 403 }]);
    try {
      expect((await fetchWithRetries(server.url, {}, POLICY, READ)).status).toBe(404);
      expect(server.requests()).toBe(1);
      expect(await fetchAnswer(server.url, {}, POLICY, READ)).toMatchObject({ status: 403, ok: false, text: "answer 2" });
    } finally {
      await server.close();
    }
  });

  it("gives up after the policy's attempts: source_unavailable for 5xx, rate_limited for 429", async () => {
    const failing = await scriptedServer([{ status: 502 }]);
    const limited = await scriptedServer([{ status: 429, headers: { "Retry-After": "0" } }]);
    try {
      await expect(fetchWithRetries(failing.url, {}, POLICY, READ)).rejects.toMatchObject({ code: "source_unavailable", status: 502 });
      expect(failing.requests()).toBe(3);
      await expect(fetchWithRetries(limited.url, {}, POLICY, READ)).rejects.toMatchObject({ code: "rate_limited", status: 429 });
    } finally {
      await failing.close();
      await limited.close();
    }
  });

  it("waits Retry-After, but not longer than the policy allows", async () => {
    const server = await scriptedServer([{ status: 429, headers: { "Retry-After": "1" } }, { status: 200 }]);
    const tooLong = await scriptedServer([{ status: 429, headers: { "Retry-After": "30" } }]);
    try {
      const started = Date.now();
      expect((await fetchWithRetries(server.url, {}, POLICY, READ)).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      await expect(fetchWithRetries(tooLong.url, {}, POLICY, READ)).rejects.toMatchObject({ code: "rate_limited" });
      expect(tooLong.requests()).toBe(1);
    } finally {
      await server.close();
      await tooLong.close();
    }
  });

  it("times a slow answer out and retries it for reads, but not for token requests", async () => {
    const policy = { ...POLICY, timeoutMs: 1_000 };
    const slowThenFast = await scriptedServer([{ status: 200, delayMs: 4_000 }, { status: 200 }]);
    const slow = await scriptedServer([{ status: 200, delayMs: 4_000 }]);
    try {
      expect((await fetchWithRetries(slowThenFast.url, {}, policy, READ)).status).toBe(200);
      expect(slowThenFast.requests()).toBe(2);
      const error = await fetchWithRetries(slow.url, {}, policy, { describe: "The token request", retryUnanswered: false }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SourceError);
      expect(error).toMatchObject({ code: "source_unavailable", message: "The token request timed out after 1000 ms." });
      expect(slow.requests()).toBe(1);
    } finally {
      await slowThenFast.close();
      await slow.close();
    }
  });
});
