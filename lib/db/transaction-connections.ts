import type { PrismaPg } from "@prisma/adapter-pg";

/**
 * Prisma 6.19's transaction manager sends COMMIT itself and hands the connection back to the pool only when the
 * COMMIT succeeds. Under SERIALIZABLE, PostgreSQL reports most serialization failures at COMMIT, so each one would
 * keep a pool connection checked out for good, and after as many failures as the pool has connections every query
 * would wait forever. PostgreSQL has already ended the transaction when COMMIT fails, so the connection is clean:
 * this hands it back (as Prisma 7's transaction manager does) and lets the error through unchanged.
 */
export function releaseConnectionOnFailedCommit(factory: PrismaPg): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const transaction = await startTransaction(isolationLevel);
      const executeRaw = transaction.executeRaw.bind(transaction);
      transaction.executeRaw = async (query) => {
        try {
          return await executeRaw(query);
        } catch (error) {
          // In the pg adapter, rollback() sends nothing: it only returns the connection to the pool.
          if (query.sql === "COMMIT") await transaction.rollback();
          throw error;
        }
      };
      return transaction;
    };
    return adapter;
  };
  return factory;
}
