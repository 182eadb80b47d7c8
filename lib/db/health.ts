import { pgPool } from "./client";

/**
 * Whether the database answers `SELECT 1` within `timeoutMs` (through pg directly: health checks are frequent). The
 * deadline's timer is cleared as soon as the probe settles: a load balancer's checks (thousands a second under load
 * tests) would otherwise each leave a timer pending for the whole timeout.
 */
export async function databaseReachable(timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, false).unref();
  });
  const probe = pgPool().query("SELECT 1").then(() => true, () => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
