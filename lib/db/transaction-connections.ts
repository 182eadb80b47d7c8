import type { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { isDatabaseTimeout } from "./timeouts";

// The pg adapter's transaction holds its pooled connection, and a cleanup that unhooks its error listener.
type PgTransactionInternals = { client: pg.PoolClient; cleanup?: () => void };

/**
 * Makes sure every connection a Prisma interactive transaction checks out leaves it either clean, back in the pool,
 * or destroyed. Prisma 6.19's transaction manager sends COMMIT and ROLLBACK itself and hands the connection back
 * (the pg adapter's commit() and rollback() send nothing: they only release it) only when that statement succeeds.
 *
 * - COMMIT failed with an error from PostgreSQL (most serialization failures under SERIALIZABLE are reported
 *   there): PostgreSQL has already ended the transaction, so the connection is clean and is handed back, as Prisma
 *   7's transaction manager does. Without this, each such failure would keep a pool connection checked out for good.
 * - A statement timed out client-side (lib/db/timeouts.ts), or ROLLBACK failed: the connection may still be running
 *   the statement, or be mid-transaction, and a ROLLBACK sent now would only queue behind it (a silent server
 *   answers neither). It is destroyed at once; the transaction's later statements fail with the same error without
 *   being sent, and Prisma's closing commit() or rollback() does nothing more.
 *
 * The error is passed on unchanged in every case.
 */
export function guardTransactionConnections(factory: PrismaPg): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const transaction = await startTransaction(isolationLevel);
      const internals = transaction as unknown as PgTransactionInternals;
      let discarded: Error | undefined;
      const discard = (error: Error) => {
        discarded = error;
        internals.cleanup?.();
        internals.client.release(error);
      };
      const guarded = <Query extends { sql: string }, Result>(run: (query: Query) => Promise<Result>) => {
        return async (query: Query): Promise<Result> => {
          if (discarded) throw discarded;
          try {
            return await run(query);
          } catch (error) {
            if (discarded) throw error;
            if (isDatabaseTimeout(error) || query.sql === "ROLLBACK") discard(error instanceof Error ? error : new Error(String(error)));
            else if (query.sql === "COMMIT") await transaction.rollback();
            throw error;
          }
        };
      };
      const executeRaw = transaction.executeRaw.bind(transaction);
      const queryRaw = transaction.queryRaw.bind(transaction);
      const commit = transaction.commit.bind(transaction);
      const rollback = transaction.rollback.bind(transaction);
      transaction.executeRaw = guarded(executeRaw);
      transaction.queryRaw = guarded(queryRaw);
      transaction.commit = async () => {
        if (!discarded) await commit();
      };
      transaction.rollback = async () => {
        if (!discarded) await rollback();
      };
      return transaction;
    };
    return adapter;
  };
  return factory;
}
