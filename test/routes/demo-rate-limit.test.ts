import { describe, expect, it } from "vitest";
import { callApi, errorCode, freshAddress } from "@/test/route-calls";

describe("demo rate limit: 120 requests per minute per client address", () => {
  it("answers the 121st request with 429 rate_limited, Retry-After and no-store; other addresses are unaffected", async () => {
    const address = freshAddress();
    for (let request = 1; request <= 120; request += 1) {
      const call = await callApi("/demo/v1/scenarios", { address });
      expect(call.status).toBe(200);
      expect(call.headers.get("ratelimit")).toMatch(new RegExp(`^"demo";r=${120 - request};t=\\d+$`));
    }
    const limited = await callApi("/demo/v1/scenarios", { address });
    expect([limited.status, errorCode(limited)]).toEqual([429, "rate_limited"]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(limited.headers.get("cache-control")).toBe("no-store");
    expect(limited.headers.get("ratelimit-policy")).toBe('"demo";q=120;w=60');
    expect(limited.headers.get("ratelimit")).toMatch(/^"demo";r=0;t=\d+$/);
    expect(limited.headers.get("x-data-notice")).toBeTruthy();

    const other = await callApi("/demo/v1/health", {});
    expect(other.status).toBe(200);
  });
});
