import { describe, expect, it } from "vitest";
import { AGENT_POLICY } from "@/lib/auth";
import { keyRequestsPerMinute, agentRequestsPerMinute } from "@/lib/config";
import { KEY_POLICY, rateLimited, rateLimitHeaders } from "./rate-limit";

// The rate-limit windows and the headers that state them, without a database (the counting itself, shared by every
// app instance in PostgreSQL, is proven by lib/auth/key-instances.int.test.ts and test/scale-out.int.test.ts).

describe("the windows", () => {
  it("a key: its deployment's requests per minute (300 unless set) in one 60-second window", () => {
    expect(KEY_POLICY).toEqual({ name: "key", points: keyRequestsPerMinute(), windowSeconds: 60 });
  });

  it("an application's delegated credentials together: their own per-minute limit in one 60-second window", () => {
    expect(AGENT_POLICY).toEqual({ name: "agent", points: agentRequestsPerMinute(), windowSeconds: 60 });
  });
});

describe("the headers", () => {
  const policy = { name: "key", points: 300, windowSeconds: 60 };

  it("state the policy, what is left and the seconds until the window resets, rounded up", () => {
    expect(rateLimitHeaders(policy, 299, 59_001)).toEqual({ "RateLimit-Policy": `"key";q=300;w=60`, RateLimit: `"key";r=299;t=60` });
    expect(rateLimitHeaders(policy, 0, 1)).toEqual({ "RateLimit-Policy": `"key";q=300;w=60`, RateLimit: `"key";r=0;t=1` });
  });

  it("never state a negative remainder or a reset under one second", () => {
    expect(rateLimitHeaders(policy, -4, 0).RateLimit).toBe(`"key";r=0;t=1`);
  });

  it("a spent window answers 429 rate_limited with Retry-After in whole seconds, rounded up", () => {
    const error = rateLimited(policy, -1, 12_300);
    expect(error.code).toBe("rate_limited");
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({ "RateLimit-Policy": `"key";q=300;w=60`, RateLimit: `"key";r=0;t=13`, "Retry-After": "13" });
    expect(error.message).toContain("300 per 60 seconds");
  });
});
