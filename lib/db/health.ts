import { pgPool } from "./client";
import { boundedQuery } from "./timeouts";

/**
 * Whether the database answers `SELECT 1` within `timeoutMs` (through pg directly: health checks are frequent), so a
 * silent database gives 503 within it (the pool's wait for a connection is longer: lib/db/timeouts.ts). The
 * deadline's timer is cleared as soon as the probe settles: a load balancer's checks (thousands a second under load
 * tests) would otherwise each leave a timer pending for the whole timeout.
 */
export async function databaseReachable(timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, false).unref();
  });
  // The probe's own bound is the deadline: its connection is destroyed then rather than left waiting on a silent
  // server (checks keep coming, and each would hold a pool connection for the pool's longer bound).
  const probe = pgPool()
    .query(boundedQuery({ text: "SELECT 1" }, timeoutMs))
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
