import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth";
import { bearer, createTestApplication } from "@/test/factories";
import { dispatchApiRequest } from "@/lib/routes";

const getApp = (key: string) => dispatchApiRequest(new Request("http://localhost/api/v1/app", { headers: bearer(key) }));
const remaining = (response: Response) => Number(/;r=(\d+);/.exec(response.headers.get("ratelimit") ?? "")?.[1]);

describe("per-key rate limit: 300 requests per minute", () => {
  it("350 concurrent requests with one key give exactly 300 successes and 50 rate_limited with Retry-After", async () => {
    const { sandboxKey } = await createTestApplication();
    const responses = await Promise.all(
      Array.from({ length: 350 }, () => dispatchApiRequest(new Request("http://localhost/api/v1/app", { headers: bearer(sandboxKey) }))),
    );
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(300);
    expect(limited).toHaveLength(50);
    for (const response of limited) {
      const retryAfter = Number(response.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(response.headers.get("ratelimit-policy")).toBe('"key";q=300;w=60');
      expect(response.headers.get("ratelimit")).toMatch(/^"key";r=0;t=\d+$/);
      expect(response.headers.get("service-version")).toBe("2026-09-22");
      expect((await response.json()).error.code).toBe("rate_limited");
    }
    const remaining = ok.map((r) => Number(/r=(\d+)/.exec(r.headers.get("ratelimit") ?? "")?.[1]));
    expect(new Set(remaining).size).toBe(300);
    expect(Math.min(...remaining)).toBe(0);
  });

  it("another key, even of the same application, has its own budget", async () => {
    const { application, sandboxKey } = await createTestApplication();
    const second = await createApiKey({ applicationId: application.id, environment: "sandbox" });
    for (let i = 0; i < 5; i++) expect((await getApp(sandboxKey)).status).toBe(200);
    expect(remaining(await getApp(second.key))).toBe(299);
    expect(remaining(await getApp(sandboxKey))).toBe(294);
  });
});
