import { pgPool } from "./client";

/** Whether the database answers `SELECT 1` within `timeoutMs` (through pg directly: health checks are frequent). */
export async function databaseReachable(timeoutMs = 2000): Promise<boolean> {
  const probe = pgPool().query("SELECT 1").then(() => true, () => false);
  const timeout = new Promise<boolean>((resolve) => setTimeout(resolve, timeoutMs, false).unref());
  return Promise.race([probe, timeout]);
}
