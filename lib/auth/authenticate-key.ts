import { timingSafeEqual } from "node:crypto";
import type pg from "pg";
import { counterPool, notificationListener, pgPool } from "@/lib/db";
import { ApiError, KEY_POLICY, rateLimited, rateLimitHeaders, type RateLimitPolicy } from "@/lib/http";
import { hashApiKey, keyEnvironment, type Environment } from "./api-key-format";
import type { KeyAuth } from "./key-auth";
import { KeyCache } from "./key-cache";
import { keyAdmission, keyLookup, touchKey, type KeyRow } from "./key-sql";
import { processState } from "@/lib/process-state";

/** What counting a request against the key's limit found: its RateLimit headers, or that the key changed. */
export type KeyAdmission = { headers: Record<string, string> } | "changed";

// lastUsedAt is informational; writing it at most once a minute per key keeps it off the hot path.
const LAST_USED_WRITE_INTERVAL_MS = 60_000;
/** How many times a key that keeps changing under a request is read again before the request gives up. */
const KEY_READS = 3;

/**
 * Key authentication for one app instance: its connection pool and its key cache. A request costs one SQL
 * statement, the limit's: `authenticate` answers known keys from the cache (kept in step with the database by
 * notifications), and `consume` counts the request in a statement that also checks the key is still as cached, so
 * a revoked key or a suspended application is refused on its next request on every instance at once.
 */
export class KeyAuthenticator {
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly pool: () => pg.Pool,
    readonly cache: KeyCache,
    /** Where the counting writes go (the limit's window, lastUsedAt): see counterPool in lib/db. */
    private readonly counters: () => pg.Pool = pool,
  ) {}

  /**
   * Reads `Authorization: Bearer <key>` and resolves the key exactly as the Authentication table of
   * docs/contract.md says. `fresh` skips the cache (and drops the key from it).
   */
  async authenticate(authorization: string | null, options: { fresh?: boolean } = {}): Promise<KeyAuth> {
    const token = bearerToken(authorization);
    const environment = keyEnvironment(token);
    if (!environment) throw invalidKey();
    const secretHash = hashApiKey(token);

    if (options.fresh) this.cache.delete(secretHash);
    else {
      const cached = this.cache.get(secretHash);
      if (cached) {
        this.touchLastUsed(cached.apiKeyId);
        return cached;
      }
    }

    const version = this.cache.version();
    const { rows } = await this.pool().query<KeyRow>(keyLookup(secretHash));
    const key = rows[0];
    // The lookup is by hash; the explicit constant-time comparison keeps the check honest if the lookup changes.
    if (!key || !timingSafeEqual(Buffer.from(key.secretHash), Buffer.from(secretHash))) throw invalidKey();
    if (key.revokedAt || key.environment !== environment) throw invalidKey();
    if (key.status === "suspended") throw new ApiError("app_suspended", "This application is suspended.");
    if (environment === "live" && !key.productionEnabled) {
      throw new ApiError("production_not_enabled", "Production is not enabled for this application; use a sandbox key.");
    }

    const auth = toKeyAuth(key, environment);
    this.cache.set(secretHash, auth, version);
    this.touchLastUsed(auth.apiKeyId);
    return auth;
  }

  /**
   * Counts one request against the key's per-minute limit (`policy`, shared by every instance through
   * PostgreSQL), in one statement that counts it only if the key is still as `auth` says. Throws 429
   * `rate_limited` when the window is spent; answers "changed" (counting nothing) when the key was revoked or its
   * application changed since `auth` was read: authenticate it again, fresh.
   */
  async consume(auth: KeyAuth, policy: RateLimitPolicy = KEY_POLICY): Promise<KeyAdmission> {
    const now = Date.now();
    const { rows } = await this.counters().query<{ points: number; expire: string }>(
      keyAdmission({
        windowKey: `${policy.name}:${auth.apiKeyId}`,
        windowMs: policy.windowSeconds * 1000,
        apiKeyId: auth.apiKeyId,
        environment: auth.environment,
        status: auth.application.status,
        productionEnabled: auth.application.productionEnabled,
        categoryAllowlist: auth.application.categoryAllowlist,
        now,
      }),
    );
    const window = rows[0];
    if (!window) return "changed";
    const msBeforeNext = Math.max(Number(window.expire) - Date.now(), 0);
    if (window.points > policy.points) throw rateLimited(policy, 0, msBeforeNext);
    return { headers: rateLimitHeaders(policy, policy.points - window.points, msBeforeNext) };
  }

  /**
   * Admits one request of a caller `authenticate` resolved (from `authorization`): counts it against the key's
   * limit, and if the key changed since it was read (see `consume`), reads it again from the database and counts
   * it then. A revoked key therefore gets its 401, and a suspended application its 403, on the first request after
   * the change, on every instance. Returns the key as it is now, with the RateLimit headers.
   */
  async admit(auth: KeyAuth, authorization: string | null, policy: RateLimitPolicy = KEY_POLICY): Promise<{ auth: KeyAuth; headers: Record<string, string> }> {
    for (let read = 1; ; read++) {
      const admission = await this.consume(auth, policy);
      if (admission !== "changed") return { auth, headers: admission.headers };
      if (read === KEY_READS) throw new Error("the API key kept changing while the request was admitted");
      auth = await this.authenticate(authorization, { fresh: true });
    }
  }

  private touchLastUsed(apiKeyId: string): void {
    const now = Date.now();
    if (now - (this.lastUsedWrites.get(apiKeyId) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastUsedWrites.set(apiKeyId, now);
    this.counters()
      .query(touchKey(apiKeyId, new Date(now)))
      .catch(() => this.lastUsedWrites.delete(apiKeyId));
  }
}

function toKeyAuth(key: KeyRow, environment: Environment): KeyAuth {
  // Shared by every request that presents the key while it is cached: frozen, so no handler can alter it.
  return Object.freeze({
    kind: "key" as const,
    apiKeyId: key.id,
    environment,
    conformanceRunId: key.conformanceRunId,
    application: Object.freeze({
      id: key.applicationId,
      name: key.name,
      status: key.status,
      productionEnabled: key.productionEnabled,
      categoryAllowlist: Object.freeze([...key.categoryAllowlist]) as string[],
      syncMode: key.syncMode,
    }),
  });
}

/** The process's own: on the process's pool, with its cache listening on the process's notification connection. */
export function keyAuthenticator(): KeyAuthenticator {
  return processState("auth.key-authenticator", () => new KeyAuthenticator(pgPool, new KeyCache(notificationListener), counterPool));
}

/** Resolves `Authorization: Bearer <key>` with this process's authenticator (see KeyAuthenticator.authenticate). */
export function authenticateKey(authorization: string | null, options?: { fresh?: boolean }): Promise<KeyAuth> {
  return keyAuthenticator().authenticate(authorization, options);
}

/** Admits one keyed request with this process's authenticator (see KeyAuthenticator.admit). */
export function admitKeyRequest(auth: KeyAuth, authorization: string | null): Promise<{ auth: KeyAuth; headers: Record<string, string> }> {
  return keyAuthenticator().admit(auth, authorization);
}

export function bearerToken(authorization: string | null): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match?.[1]) {
    throw new ApiError("missing_api_key", "Send your API key as `Authorization: Bearer <API_KEY>`.");
  }
  return match[1];
}

function invalidKey(): ApiError {
  return new ApiError("invalid_api_key", "The API key is unknown, revoked or malformed.");
}
