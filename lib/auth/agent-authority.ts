import type pg from "pg";
import { pgPool } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { log } from "@/lib/log";
import type { KeyRow } from "./key-sql";

/**
 * A credential with everything its authority rests on: itself, its parent key and application (the columns key
 * authentication reads), its receipt.
 */
export type AuthorityRow = Pick<KeyRow, "environment" | "conformanceRunId" | "applicationId" | "name" | "status" | "productionEnabled" | "categoryAllowlist" | "syncMode"> & {
  id: string;
  subjectId: string;
  receiptId: string;
  categories: string[];
  operations: string[];
  purpose: string;
  expiresAt: Date;
  credentialRevoked: boolean;
  apiKeyId: string;
  keyRevoked: boolean;
  receiptActive: boolean;
};

// A check that cannot get its rows promptly (the database is down, or a table is locked) answers 503 rather than
// hold the request: waiting longer would only delay the same answer.
const LOCK_TIMEOUT_MS = 1_000;
const STATEMENT_TIMEOUT_MS = 3_000;

function authorityQuery(by: "tokenHash" | "id", value: string, now: Date): pg.QueryConfig {
  return {
    name: `chartkey-agent-authority-${by}`,
    text: `SELECT c.id, c."subjectId", c."receiptId", c.categories, c.operations, c.purpose,
                  c."expiresAt" AT TIME ZONE 'UTC' AS "expiresAt", c."revokedAt" IS NOT NULL AS "credentialRevoked",
                  k.id AS "apiKeyId", k."revokedAt" IS NOT NULL AS "keyRevoked", k.environment, k."conformanceRunId",
                  a.id AS "applicationId", a.name, a.status, a."productionEnabled", a."categoryAllowlist", a."syncMode",
                  (r.status = 'active' AND r."expiresAt" > $2::timestamp(3)) AS "receiptActive"
           FROM "AgentCredential" c
           JOIN "ApiKey" k ON k.id = c."parentKeyId"
           JOIN "Application" a ON a.id = c."applicationId"
           JOIN "ConsentReceipt" r ON r.id = c."receiptId"
           WHERE c."${by}" = $1`,
    values: [value, now.toISOString()],
  };
}

/**
 * Reads a credential's authority (by its token's hash at authentication, by id when checked again), or answers 503
 * `authority_unavailable` when it cannot be read now. Read in its own short read-only transaction with lock and
 * statement timeouts, so a lock held on any table the authority rests on fails the check instead of stalling it.
 */
export async function readAuthority(by: "tokenHash" | "id", value: string, now = new Date()): Promise<AuthorityRow | undefined> {
  let client: pg.PoolClient | undefined;
  try {
    client = await pgPool().connect();
    await client.query(`BEGIN READ ONLY; SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
    const { rows } = await client.query<AuthorityRow>(authorityQuery(by, value, now));
    await client.query("COMMIT");
    client.release();
    return rows[0];
  } catch (error) {
    // The connection may be mid-transaction: destroy it rather than return it to the pool.
    client?.release(error as Error);
    log.warn({ err: (error as Error).message }, "delegated credential authority could not be checked");
    throw new ApiError("authority_unavailable", "The credential's authority cannot be checked now; retry with backoff.");
  }
}

/** Whether the authority still holds: the credential live and unexpired, its parent key live, its receipt active. */
export function authorityHolds(row: AuthorityRow, now = new Date()): boolean {
  return !row.credentialRevoked && row.expiresAt > now && !row.keyRevoked && row.receiptActive;
}
