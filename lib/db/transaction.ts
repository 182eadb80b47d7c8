import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { db, pgPool, type Tx } from "./client";
import { Prisma } from "./generated/client";
import { databaseTimeouts, isDatabaseTimeout } from "./timeouts";

/** PostgreSQL runs READ UNCOMMITTED as READ COMMITTED, so it is not offered. */
export type IsolationLevel = Exclude<Prisma.TransactionIsolationLevel, "ReadUncommitted">;

/** How many times `withTransaction` runs a transaction that keeps failing to serialize before passing the error on. */
export const SERIALIZATION_ATTEMPTS = 5;

// Sized for short request-path transactions: wait up to 5 s for a pooled connection (Prisma's 2 s default gives up
// early under bursts), and roll back anything still open after 15 s rather than hold locks and a connection.
const DEFAULT_MAX_WAIT_MS = 5_000;
const DEFAULT_TIMEOUT_MS = 15_000;

// PostgreSQL asks clients to retry serialization failures and advises retrying deadlocks the same way
// (documentation, "Serialization Failure Handling").
const RETRYABLE_SQLSTATES = new Set(["40001", "40P01"]);

/**
 * Runs `fn` in one interactive transaction at `isolation`: it commits when `fn` resolves and rolls back when it
 * throws. Under RepeatableRead and Serializable, PostgreSQL may abort a transaction that conflicts with a
 * concurrent one; the whole transaction then runs again, up to SERIALIZATION_ATTEMPTS times, after a short random
 * pause. `fn` may therefore run more than once: it must do nothing outside the database that cannot be repeated.
 */
export async function withTransaction<T>(
  isolation: IsolationLevel,
  fn: (tx: Tx) => Promise<T>,
  options: { maxWait?: number; timeout?: number } = {},
): Promise<T> {
  const transactionOptions = {
    isolationLevel: isolation,
    maxWait: options.maxWait ?? DEFAULT_MAX_WAIT_MS,
    timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
  };
  // READ COMMITTED does not raise serialization failures; a retry there would only hide a bug.
  const attempts = isolation === "ReadCommitted" ? 1 : SERIALIZATION_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db().$transaction(fn, transactionOptions);
    } catch (error) {
      if (attempt >= attempts || !isSerializationFailure(error)) throw error;
      // Full jitter, doubling per attempt (up to 20, 40, 80, 160 ms), so the transactions that collided drift apart.
      await sleep(Math.random() * 10 * 2 ** attempt);
    }
  }
}

/**
 * Runs `fn` in one READ COMMITTED transaction on a pg connection of the pool, bypassing Prisma: for bulk writes whose
 * statements carry megabytes of rows as parameters, which Prisma's query engine would copy and re-encode on every
 * statement. Commits when `fn` resolves, rolls back when it throws; no statement may run longer than `timeoutMs`
 * (the server's statement_timeout), and none is waited for longer than a second more than that, client-side, in
 * place of the pool's shorter bound (lib/db/timeouts.ts), should the server stop answering.
 */
export async function withPgTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>, options: { timeoutMs?: number } = {}): Promise<T> {
  const timeoutMs = Math.trunc(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const client = await pgPool().connect();
  const restore = boundStatements(client, Math.max(timeoutMs + 1_000, databaseTimeouts().queryMs));
  let broken: Error | undefined;
  try {
    await client.query("BEGIN ISOLATION LEVEL READ COMMITTED");
    await client.query(`SET LOCAL statement_timeout = ${timeoutMs}`);
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    // A connection whose statement timed out may still be running it (a ROLLBACK would only queue behind it), and
    // one that cannot even roll back may be mid-transaction: either is dropped rather than handed to the next caller.
    if (isDatabaseTimeout(error)) broken = error as Error;
    else await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    restore();
    client.release(broken);
  }
}

/**
 * Gives every statement sent on `client` (text, config or a submittable such as a COPY stream) the client-side
 * bound `ms` instead of the pool's, until the returned function is called.
 */
function boundStatements(client: pg.PoolClient, ms: number): () => void {
  const own = client as unknown as { query: (config: unknown, ...rest: unknown[]) => unknown };
  const query = own.query;
  own.query = (config: unknown, ...rest: unknown[]) => query.call(client, withQueryTimeout(config, ms), ...rest);
  return () => {
    own.query = query;
  };
}

function withQueryTimeout(config: unknown, ms: number): unknown {
  if (typeof config === "string") return { text: config, query_timeout: ms };
  if (typeof config !== "object" || config === null) return config;
  // A submittable is a stateful object pg drives itself: it keeps its identity, and pg reads the bound off it.
  if (typeof (config as { submit?: unknown }).submit === "function") return Object.assign(config, { query_timeout: ms });
  return { ...config, query_timeout: ms };
}

/**
 * Prisma reports one failure three ways: P2034 from a model query, P2010 wrapping the driver's error from a raw
 * query, and the driver adapter's own error when COMMIT fails. The driver's error carries the SQLSTATE.
 */
export function isSerializationFailure(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2034") return true;
  const driverError = error instanceof Prisma.PrismaClientKnownRequestError ? error.meta?.driverAdapterError : error;
  const sqlState = (driverError as { cause?: { originalCode?: unknown } } | null | undefined)?.cause?.originalCode;
  return typeof sqlState === "string" && RETRYABLE_SQLSTATES.has(sqlState);
}
