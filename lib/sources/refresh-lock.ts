import { boundedQuery, pgPool } from "@/lib/db";

// Waiting for the lock is waiting for another process's refresh, HTTP requests and their retries included (at most
// 5 tries of 15 s each with backoff, after discovery: DEFAULT_HTTP_POLICY), not for a silent database: this wait
// has its own client-side bound in place of the pool's few seconds (lib/db/timeouts.ts).
const LOCK_WAIT_MS = 5 * 60_000;

/**
 * Runs `fn` while holding a PostgreSQL advisory lock named after the source, so one source's token is refreshed by
 * one process at a time across every instance. Providers rotate refresh tokens: two concurrent refreshes with the
 * same token would leave one of them refused and, without this, the source disconnected. The lock is held on its
 * own pooled connection, not in a transaction, because `fn` makes an HTTP request.
 */
export async function withSourceRefreshLock<T>(sourceId: string, fn: () => Promise<T>): Promise<T> {
  const connection = await pgPool().connect();
  const key = `source-token-refresh:${sourceId}`;
  // A lock or unlock that failed (timed out, the connection lost) may leave the lock held, or about to be taken, by
  // this session: the connection is then destroyed, which releases it, rather than handed to the next caller.
  let broken: Error | undefined;
  const locking = async (text: string, queryTimeout?: number) => {
    try {
      await connection.query(queryTimeout ? boundedQuery({ text, values: [key] }, queryTimeout) : { text, values: [key] });
    } catch (error) {
      broken = error as Error;
      throw error;
    }
  };
  try {
    await locking("SELECT pg_advisory_lock(hashtextextended($1, 0))", LOCK_WAIT_MS);
    try {
      return await fn();
    } finally {
      await locking("SELECT pg_advisory_unlock(hashtextextended($1, 0))");
    }
  } finally {
    connection.release(broken);
  }
}
