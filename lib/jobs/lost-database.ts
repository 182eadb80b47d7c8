import { isDatabaseError } from "@/lib/http";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";

/**
 * pg-boss 10 marks a finished job completed or failed without awaiting it (`watch()` in its manager.js), so a
 * database lost at that moment rejects a promise nobody handles, and Node.js ends the process: a PostgreSQL restart
 * killed every worker. Such a rejection is logged instead and the worker keeps polling until the database is back;
 * the job stays active and its expiry retries it, as for any worker that lost its database. Any other unhandled
 * rejection still ends the process, as it would without this.
 */
export function surviveLostDatabase(): void {
  const handler = processState("jobs.lost-database", () => ({ installed: false }));
  if (handler.installed) return;
  handler.installed = true;
  process.on("unhandledRejection", (reason) => {
    if (!isDatabaseError(reason)) throw reason;
    log.warn({ err: (reason as Error).message }, "the job queue lost the database; it retries when the database is back");
  });
}
