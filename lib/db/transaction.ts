import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { db, pgPool, type Tx } from "./client";
import { Prisma } from "./generated/client";

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
 * statement. Commits when `fn` resolves, rolls back when it throws; no statement may run longer than `timeoutMs`.
 */
export async function withPgTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>, options: { timeoutMs?: number } = {}): Promise<T> {
  const client = await pgPool().connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN ISOLATION LEVEL READ COMMITTED");
    await client.query(`SET LOCAL statement_timeout = ${Math.trunc(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)}`);
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    // A connection that cannot even roll back is dropped rather than handed to the next caller mid-transaction.
    await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
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
