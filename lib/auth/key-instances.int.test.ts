import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { NotificationListener } from "@/lib/db";
import { KEY_POLICY } from "@/lib/http";
import { createTestApplication } from "@/test/factories";
import { consumeOn, keyLimiterOn, outcomeOf } from "@/test/key-limiter";
import { hashApiKey } from "./api-key-format";
import { createApiKey } from "./create-api-key";
import { KeyAuthenticator } from "./authenticate-key";
import type { KeyAuth } from "./key-auth";
import { KeyCache } from "./key-cache";

/**
 * Two app instances against one database, as two deployments of the platform would be: each with its own
 * connection pool, its own key cache and its own LISTEN connection.
 */
const instances: { pool: pg.Pool; listener: NotificationListener }[] = [];
afterAll(async () => {
  for (const { pool, listener } of instances) {
    await listener.close();
    await pool.end();
  }
});

function instance() {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 5 });
  const listener = new NotificationListener(process.env.DATABASE_URL!);
  instances.push({ pool, listener });
  const cache = new KeyCache(() => listener);
  const keys = new KeyAuthenticator(() => pool, cache);
  /** One keyed request's admission, as the pipeline runs it: authentication, then the limit. */
  const request = async (key: string) => {
    const authorization = `Bearer ${key}`;
    return keys.admit(await keys.authenticate(authorization), authorization);
  };
  return { pool, listener, cache, keys, request };
}

async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Requests with the key on the instance until its cache holds it (the first requests wait for LISTEN to be up). */
async function warm(on: ReturnType<typeof instance>, key: string): Promise<KeyAuth> {
  // Generous: the wait ends as soon as the key is cached, and a loaded machine may take seconds to LISTEN.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const entry = on.cache.get(hashApiKey(key));
    if (entry) return entry;
    if (Date.now() > deadline) throw new Error("the key never became cached");
    await on.request(key);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("key caches on two instances", () => {
  it("a key revoked through one instance is refused by the other on its very next request, though the other had it cached", async () => {
    const { sandboxKey, sandboxKeyId } = await createTestApplication();
    const a = instance();
    const b = instance();
    await warm(a, sandboxKey);
    await warm(b, sandboxKey);

    await a.pool.query(`UPDATE "ApiKey" SET "revokedAt" = now() WHERE id = $1`, [sandboxKeyId]);
    // No waiting for the notification: the next request on B must already be refused.
    expect(await outcomeOf(b.request(sandboxKey))).toBe("invalid_api_key");
    expect(await outcomeOf(a.request(sandboxKey))).toBe("invalid_api_key");
    // And B's cache drops the key when the notification arrives, so it is not even looked for there any more.
    await until(() => b.cache.get(hashApiKey(sandboxKey)) === undefined, "B's cache drops the key");
  });

  it("suspending the application stops its cached keys at once with 403 app_suspended, and lifting it restores them", async () => {
    const { application, sandboxKey } = await createTestApplication();
    const a = instance();
    const b = instance();
    await warm(b, sandboxKey);

    await a.pool.query(`UPDATE "Application" SET status = 'suspended' WHERE id = $1`, [application.id]);
    expect(await outcomeOf(b.request(sandboxKey))).toBe("app_suspended");

    await a.pool.query(`UPDATE "Application" SET status = 'sandbox' WHERE id = $1`, [application.id]);
    expect(await outcomeOf(b.request(sandboxKey))).toBe("admitted");
  });

  it("disabling production stops a cached live key at once", async () => {
    const { application, liveKey } = await createTestApplication({ productionEnabled: true, status: "active" });
    const a = instance();
    const b = instance();
    await warm(b, liveKey);
    await a.pool.query(`UPDATE "Application" SET "productionEnabled" = false WHERE id = $1`, [application.id]);
    expect(await outcomeOf(b.request(liveKey))).toBe("production_not_enabled");
  });

  it("an allowlist change reaches a cached key on its next request, and the cache picks it up from the notification", async () => {
    const { application, sandboxKey } = await createTestApplication({ categoryAllowlist: ["labs", "vitals"] });
    const a = instance();
    const b = instance();
    await warm(b, sandboxKey);
    await a.pool.query(`UPDATE "Application" SET "categoryAllowlist" = ARRAY['labs'] WHERE id = $1`, [application.id]);
    expect((await b.request(sandboxKey)).auth.application.categoryAllowlist).toEqual(["labs"]);
    // The fresh read is cached only if the notification arrived before it (a read racing a change message is never
    // cached), so on a loaded machine it may take a further request: every one sees the new allowlist meanwhile,
    // and the cache never holds the old one again.
    const deadline = Date.now() + 15_000;
    while (b.cache.get(hashApiKey(sandboxKey))?.application.categoryAllowlist.length !== 1) {
      if (Date.now() > deadline) throw new Error("B never cached the new allowlist");
      expect(b.cache.get(hashApiKey(sandboxKey))).toBeUndefined();
      expect((await b.request(sandboxKey)).auth.application.categoryAllowlist).toEqual(["labs"]);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  it("a name change (not checked per request) is dropped from every cache by the notification", async () => {
    const { application, sandboxKey } = await createTestApplication();
    const a = instance();
    const b = instance();
    await warm(b, sandboxKey);
    await a.pool.query(`UPDATE "Application" SET name = 'Renamed' WHERE id = $1`, [application.id]);
    await until(() => b.cache.get(hashApiKey(sandboxKey)) === undefined, "B drops the key");
    expect((await b.request(sandboxKey)).auth.application.name).toBe("Renamed");
  });

  it("writing lastUsedAt does not invalidate anything", async () => {
    const { application, sandboxKey, sandboxKeyId } = await createTestApplication();
    const other = await createApiKey({ applicationId: application.id, environment: "sandbox" });
    const b = instance();
    await warm(b, sandboxKey);
    await warm(b, other.key);
    await b.pool.query(`UPDATE "ApiKey" SET "lastUsedAt" = now() WHERE id = $1`, [sandboxKeyId]);
    // Notifications arrive in commit order: once the later revocation's has dropped the other key, a notification
    // for the lastUsedAt write would have arrived too.
    await b.pool.query(`UPDATE "ApiKey" SET "revokedAt" = now() WHERE id = $1`, [other.id]);
    await until(() => b.cache.get(hashApiKey(other.key)) === undefined, "B drops the revoked key");
    expect(b.cache.get(hashApiKey(sandboxKey))).toBeDefined();
  });

  it("losing the LISTEN connection drops the cache and bypasses it until listening again", async () => {
    const { sandboxKey } = await createTestApplication();
    const b = instance();
    await warm(b, sandboxKey);
    expect(b.listener.live("chartkey_key_changes")).toBe(true);

    await b.pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`);
    await until(() => !b.listener.live("chartkey_key_changes"), "B notices the lost connection");
    expect(b.cache.size).toBe(0);
    expect(b.cache.get(hashApiKey(sandboxKey))).toBeUndefined();

    // It reconnects by itself and caches again once it is listening.
    await warm(b, sandboxKey);
    expect(b.listener.live("chartkey_key_changes")).toBe(true);
  });
});

describe("the per-key limit across instances", () => {
  it("is exact: two instances (and rate-limiter-flexible on the same table) together admit 300, not more", async () => {
    const { sandboxKey } = await createTestApplication();
    const a = instance();
    const b = instance();
    const auth = await warm(a, sandboxKey);
    await warm(b, sandboxKey);
    // The warm-up requests counted too; start from a fresh window.
    await a.pool.query(`DELETE FROM rate_limits WHERE key = $1`, [`key:${auth.apiKeyId}`]);

    const flexible = keyLimiterOn(a.pool);
    const outcomes = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        i % 3 === 0 ? outcomeOf(a.request(sandboxKey)) : i % 3 === 1 ? outcomeOf(b.request(sandboxKey)) : consumeOn(flexible, auth.apiKeyId),
      ),
    );
    expect(KEY_POLICY.points).toBe(300);
    expect(outcomes.filter((outcome) => outcome === "admitted")).toHaveLength(300);
    expect(outcomes.filter((outcome) => outcome === "rate_limited")).toHaveLength(100);
  });

  it("a refused request counts nothing: a revoked key's attempts leave the window as it was", async () => {
    const { sandboxKey, sandboxKeyId } = await createTestApplication();
    const a = instance();
    await warm(a, sandboxKey);
    const points = async () => (await a.pool.query(`SELECT points FROM rate_limits WHERE key = $1`, [`key:${sandboxKeyId}`])).rows[0]?.points;
    const before = await points();
    await a.pool.query(`UPDATE "ApiKey" SET "revokedAt" = now() WHERE id = $1`, [sandboxKeyId]);
    expect(await outcomeOf(a.request(sandboxKey))).toBe("invalid_api_key");
    expect(await points()).toBe(before);
  });
});
