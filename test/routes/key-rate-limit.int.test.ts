import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import * as appRoute from "@/app/api/v1/app/route";
import { bearer, createTestApplication, routeContext } from "@/test/factories";
import { keyLimiterOn } from "@/test/key-limiter";
import { ApiError, consumeRateLimit, KEY_POLICY } from "@/lib/http";

const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

/** A limiter with its own connection pool, standing in for the limiter of another app instance. */
function limiterOfAnotherInstance() {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 5 });
  pools.push(pool);
  return keyLimiterOn(pool);
}

describe("per-key rate limit: 300 requests per minute", () => {
  it("350 concurrent requests with one key give exactly 300 successes and 50 rate_limited with Retry-After", async () => {
    const { sandboxKey } = await createTestApplication();
    const responses = await Promise.all(
      Array.from({ length: 350 }, () => appRoute.GET(new Request("http://localhost/api/v1/app", { headers: bearer(sandboxKey) }), routeContext())),
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
    const first = await createTestApplication();
    const response = await appRoute.GET(new Request("http://localhost/api/v1/app", { headers: bearer(first.sandboxKey) }), routeContext());
    expect(response.headers.get("ratelimit")).toMatch(/r=299/);
  });

  it("the window is shared through PostgreSQL: two instances together admit 300, not 600", async () => {
    const key = `shared-${Date.now()}`;
    const instanceA = limiterOfAnotherInstance();
    const instanceB = limiterOfAnotherInstance();
    const attempts = Array.from({ length: 400 }, (_, i) =>
      consumeRateLimit(KEY_POLICY, key, i % 2 === 0 ? instanceA : instanceB).then(
        () => "ok" as const,
        (error: unknown) => (error instanceof ApiError && error.code === "rate_limited" ? ("limited" as const) : Promise.reject(error)),
      ),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(300);
    expect(outcomes.filter((o) => o === "limited")).toHaveLength(100);
  });
});
