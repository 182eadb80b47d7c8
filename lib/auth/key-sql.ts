import type pg from "pg";
import type { Environment } from "./api-key-format";

/**
 * The SQL of key authentication, as pg query configs: named, so each connection prepares a statement once and
 * then only binds it. Run through pg directly: the hot path of every keyed request cannot afford an ORM's query
 * compilation per call.
 */

export type KeyRow = {
  id: string;
  secretHash: string;
  environment: Environment;
  revokedAt: unknown;
  conformanceRunId: string | null;
  applicationId: string;
  name: string;
  status: "sandbox" | "active" | "suspended";
  productionEnabled: boolean;
  categoryAllowlist: string[];
  syncMode: "one_time" | "continuous";
};

/** A key and its application, by the key's SHA-256 hash (the unique index on "secretHash"). */
export function keyLookup(secretHash: string): pg.QueryConfig<[string]> {
  return {
    name: "chartkey-key-lookup",
    text: `SELECT k.id, k."secretHash", k.environment, k."revokedAt", k."conformanceRunId",
                  a.id AS "applicationId", a.name, a.status, a."productionEnabled", a."categoryAllowlist", a."syncMode"
           FROM "ApiKey" k JOIN "Application" a ON a.id = k."applicationId"
           WHERE k."secretHash" = $1`,
    values: [secretHash],
  };
}

export type AdmissionInput = {
  /** The limiter's row key, `<policy>:<apiKeyId>`, as rate-limiter-flexible names it, so both count the same window. */
  windowKey: string;
  windowMs: number;
  apiKeyId: string;
  environment: Environment;
  status: string;
  productionEnabled: boolean;
  categoryAllowlist: readonly string[];
  now: number;
};

/**
 * Counts one request in the key's fixed window of `rate_limits`, exactly as RateLimiterPostgres does (a window
 * whose expiry has passed starts again at 1), in one statement and only if the key is still what the caller
 * authenticated: not revoked, same environment, and its application with the same status, production flag and
 * allowlist. Returns the window's row, or no row when the key changed: nothing was counted, and the caller
 * authenticates again. Both the count and the check are read at the statement's own snapshot, so a revocation
 * committed before it is always seen, on every instance, whatever any cache holds.
 */
export function keyAdmission(input: AdmissionInput): pg.QueryConfig {
  return {
    name: "chartkey-key-admission",
    text: `INSERT INTO rate_limits AS r (key, points, expire)
           SELECT $1, 1, $2::bigint
           FROM "ApiKey" k JOIN "Application" a ON a.id = k."applicationId"
           WHERE k.id = $3 AND k."revokedAt" IS NULL AND k.environment = $4::"Environment"
             AND a.status = $5::"ApplicationStatus" AND a."productionEnabled" = $6 AND a."categoryAllowlist" = $7::text[]
           ON CONFLICT (key) DO UPDATE SET
             points = CASE WHEN r.expire <= $8 THEN 1 ELSE r.points + 1 END,
             expire = CASE WHEN r.expire <= $8 THEN $2::bigint ELSE r.expire END
           RETURNING points, expire`,
    values: [
      input.windowKey,
      input.now + input.windowMs,
      input.apiKeyId,
      input.environment,
      input.status,
      input.productionEnabled,
      [...input.categoryAllowlist],
      input.now,
    ],
  };
}

/** lastUsedAt is informational: the change trigger ignores it, so writing it never invalidates a cached key. */
export function touchKey(apiKeyId: string, at: Date): pg.QueryConfig {
  return { name: "chartkey-key-touch", text: `UPDATE "ApiKey" SET "lastUsedAt" = $2::timestamp(3) WHERE id = $1`, values: [apiKeyId, at.toISOString()] };
}
