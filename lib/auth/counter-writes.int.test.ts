import type pg from "pg";
import { describe, expect, it } from "vitest";
import { counterPool, pgPool, withStartupOption } from "@/lib/db";
import { consumeRateLimit, type RateLimitPolicy } from "@/lib/http";
import { createTestApplication } from "@/test/factories";
import { outcomeOf } from "@/test/key-limiter";
import { keyAuthenticator } from "./authenticate-key";

type Setting = { setting: string; source: string };
/** The session's synchronous_commit and where it came from, on a client or a pool. */
const synchronousCommit = async (on: Pick<pg.Pool, "query">) =>
  (await on.query<Setting>(`SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'`)).rows[0]!;

describe("the counters every request writes", () => {
  it("count a key's concurrent requests exactly, through the counter pool", async () => {
    const { sandboxKey } = await createTestApplication();
    // Nothing in this file has used the counter pool yet.
    expect(counterPool().totalCount).toBe(0);
    const keys = keyAuthenticator();
    const authorization = `Bearer ${sandboxKey}`;
    const auth = await keys.authenticate(authorization);
    const policy: RateLimitPolicy = { name: `counted-${auth.apiKeyId}`, points: 40, windowSeconds: 60 };
    const outcomes = await Promise.all(Array.from({ length: 55 }, () => outcomeOf(keys.admit(auth, authorization, policy))));
    expect(outcomes.filter((result) => result === "admitted")).toHaveLength(40);
    expect(outcomes.filter((result) => result === "rate_limited")).toHaveLength(15);
    const { rows } = await pgPool().query<{ points: number }>(`SELECT points FROM rate_limits WHERE key = $1`, [`${policy.name}:${auth.apiKeyId}`]);
    expect(rows[0]?.points).toBe(55);
    expect(counterPool().totalCount).toBeGreaterThan(0);
  });

  it("commit without waiting for the disk on the counter pool's connections, and only there", async () => {
    // Every connection the pool opens, not only its first.
    const held = await Promise.all([counterPool().connect(), counterPool().connect(), counterPool().connect()]);
    try {
      for (const client of held) {
        expect(await synchronousCommit(client)).toEqual({ setting: "off", source: "client" });
      }
    } finally {
      for (const client of held) client.release();
    }
    // Records, consents and everything else keep the server's own setting.
    expect((await synchronousCommit(pgPool())).source).not.toBe("client");
  });

  it("count the library limiter's windows exactly too (the IP and session limits)", async () => {
    const policy: RateLimitPolicy = { name: `library-${Date.now()}`, points: 25, windowSeconds: 60 };
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => outcomeOf(consumeRateLimit(policy, "203.0.113.9"))));
    expect(outcomes.filter((result) => result === "admitted")).toHaveLength(25);
    expect(outcomes.filter((result) => result === "rate_limited")).toHaveLength(15);
  });
});

describe("withStartupOption", () => {
  it("adds the setting after the URL's own options, which pg would otherwise let replace it", () => {
    expect(withStartupOption("postgresql://u:p@127.0.0.1:5432/db", "-c synchronous_commit=off")).toEqual({
      connectionString: "postgresql://u:p@127.0.0.1:5432/db",
      options: "-c synchronous_commit=off",
    });
    expect(withStartupOption("postgresql://u:p@127.0.0.1:5432/db?options=-c%20statement_timeout%3D5000&sslmode=disable", "-c synchronous_commit=off")).toEqual({
      connectionString: "postgresql://u:p@127.0.0.1:5432/db?sslmode=disable",
      options: "-c statement_timeout=5000 -c synchronous_commit=off",
    });
  });
});
