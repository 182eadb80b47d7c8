import type pg from "pg";

/**
 * How long this process waits on PostgreSQL before giving up, client-side. The server's own `statement_timeout`
 * cannot help when the server does not answer at all (frozen, failing over, behind a network partition): without
 * these bounds every request would wait for as long as the database stays silent.
 *
 * - connectMs: getting a connection from a pool, opening a new one included (pg.Pool `connectionTimeoutMillis`).
 * - queryMs: one statement, from the moment it is queued on its connection until its last row (pg's client-side
 *   `query_timeout`). A timed-out connection may still be mid-statement on the server: it is destroyed, never
 *   handed to the next caller.
 *
 * A request that meets a silent database therefore fails after one of them (5 s by default, at most both: 10 s) and
 * is answered 503 `database_unavailable` with Retry-After.
 */
export type DatabaseTimeouts = { connectMs: number; queryMs: number };

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 5_000, queryMs: 5_000 };

/** What a client told `database_unavailable` should wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

function milliseconds(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of milliseconds, at least 1 (got ${raw})`);
  return value;
}

/** The bounds in force: DATABASE_CONNECT_TIMEOUT_MS and DATABASE_QUERY_TIMEOUT_MS, or the defaults. */
export function databaseTimeouts(): DatabaseTimeouts {
  return {
    connectMs: milliseconds("DATABASE_CONNECT_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.connectMs),
    queryMs: milliseconds("DATABASE_QUERY_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.queryMs),
  };
}

// The messages pg 8 and pg-pool 3 give their client-side timeouts (they carry no code): a statement's
// `query_timeout`, a pool's wait for a connection, and a new connection's `connectionTimeoutMillis`.
const TIMEOUT_MESSAGES = ["Query read timeout", "timeout exceeded when trying to connect", "Connection terminated due to connection timeout"];

/**
 * Whether `error` is one of those bounds tripping, as pg raised it or as Prisma passed it on (wrapped, with the
 * driver's error as its cause or in its message).
 */
export function isDatabaseTimeout(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (TIMEOUT_MESSAGES.some((message) => current instanceof Error && current.message.includes(message))) return true;
  }
  return false;
}

/**
 * `config` with its own client-side bound in place of the pool's, for a statement that may rightly wait longer (a
 * lock held by another process's HTTP request) or must give up sooner (a health probe). pg reads `query_timeout`
 * off a query's config as well as off its connection's; its types only declare the latter.
 */
export function boundedQuery<Values extends unknown[]>(config: pg.QueryConfig<Values>, ms: number): pg.QueryConfig<Values> {
  return Object.assign({ query_timeout: ms }, config);
}
