import { pgPool } from "@/lib/db";

/**
 * Runs `fn` while holding a PostgreSQL advisory lock named after the source, so one source's token is refreshed by
 * one process at a time across every instance. Providers rotate refresh tokens: two concurrent refreshes with the
 * same token would leave one of them refused and, without this, the source disconnected. The lock is held on its
 * own pooled connection, not in a transaction, because `fn` makes an HTTP request.
 */
export async function withSourceRefreshLock<T>(sourceId: string, fn: () => Promise<T>): Promise<T> {
  const connection = await pgPool().connect();
  const key = `source-token-refresh:${sourceId}`;
  try {
    await connection.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key]);
    try {
      return await fn();
    } finally {
      await connection.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]);
    }
  } finally {
    connection.release();
  }
}
