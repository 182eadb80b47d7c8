import type PgBoss from "pg-boss";

/**
 * Fails the jobs pg-boss still counts as active, so that each runs again now (as its queue's retry policy says)
 * instead of after its expiry (ten minutes for an import). Only for a worker on a database server its own process has
 * just started: no other worker can be connected to that server, so an active job there belongs to a worker that
 * died (the launcher was killed mid-import) and will never finish it. Returns how many jobs it failed.
 */
export async function retryInterruptedJobs(boss: PgBoss): Promise<number> {
  const { rows } = await boss.getDb().executeSql("SELECT name, id FROM pgboss.job WHERE state = 'active'", []);
  for (const { name, id } of rows as { name: string; id: string }[]) {
    await boss.fail(name, id, { message: "interrupted: the worker running it stopped" });
  }
  return rows.length;
}
