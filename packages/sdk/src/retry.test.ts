import { describe, expect, it } from "vitest";
import { isRetryable, retryingFetch } from "./retry";

function answering(statuses: number[]) {
  const seen: string[] = [];
  const inner = (async (input: Request) => {
    seen.push(input.method);
    const status = statuses.shift() ?? 200;
    return new Response("{}", { status, headers: status === 503 ? { "retry-after": "2" } : {} });
  }) as unknown as typeof fetch;
  return { inner, seen };
}

describe("the SDK's retries", () => {
  it("retries 429 and 503 for any request, and a read's 500, 502 and 504, never a write's 500", () => {
    expect([429, 503].every((status) => isRetryable(status, "POST") && isRetryable(status, "GET"))).toBe(true);
    expect([500, 502, 504].every((status) => isRetryable(status, "GET"))).toBe(true);
    expect(isRetryable(500, "POST")).toBe(false);
    expect([400, 401, 403, 404, 409, 410, 501].some((status) => isRetryable(status, "GET"))).toBe(false);
  });

  it("waits Retry-After on a 503 and answers the retry's result", async () => {
    const { inner, seen } = answering([503, 200]);
    const waits: number[] = [];
    const send = retryingFetch(inner, { maxRetries: 3, maxRetryDelayMs: 60_000, sleep: async (ms) => void waits.push(ms) });
    expect((await send(new Request("http://api.test/app"))).status).toBe(200);
    expect(waits).toEqual([2_050]);
    expect(seen).toEqual(["GET", "GET"]);
  });

  it("gives a write's 500 back at once, and stops after maxRetries", async () => {
    const write = answering([500, 200]);
    const post = retryingFetch(write.inner, { maxRetries: 3, maxRetryDelayMs: 60_000, sleep: async () => {} });
    expect((await post(new Request("http://api.test/x", { method: "POST", body: "{}" }))).status).toBe(500);
    expect(write.seen).toEqual(["POST"]);
    const busy = answering([500, 500, 500, 500, 500]);
    const get = retryingFetch(busy.inner, { maxRetries: 2, maxRetryDelayMs: 60_000, sleep: async () => {} });
    expect((await get(new Request("http://api.test/y"))).status).toBe(500);
    expect(busy.seen).toHaveLength(3);
  });
});
