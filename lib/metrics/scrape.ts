import { pgPool, poolStats } from "@/lib/db";
import { log } from "@/lib/log";
import { metrics } from "./metrics";

/** Applications named in the webhook backlog gauges: the ones with the most pending, so the series stay few. */
export const BACKLOG_TOP_APPLICATIONS = 10;

// One statement per scrape for the queue: pg-boss's job table, when pg-boss has created it (a worker started once).
const QUEUE_SQL = `
  SELECT name,
         count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())::int AS waiting,
         count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after > now())::int AS scheduled,
         count(*) FILTER (WHERE state = 'active')::int AS active,
         coalesce(extract(epoch FROM now() - min(start_after) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())), 0)::float8 AS oldest
    FROM pgboss.job
   WHERE state IN ('created', 'retry', 'active') AND name NOT LIKE '\\_\\_%'
   GROUP BY name`;

// The pending deliveries: the total (a row even when none is pending), then the applications with the most.
const BACKLOG_SQL = `
  SELECT "applicationId" AS application, count(*)::int AS pending,
         coalesce(extract(epoch FROM now() - min("createdAt")), 0)::float8 AS oldest
    FROM "WebhookDelivery" WHERE status = 'pending'
   GROUP BY GROUPING SETS ((), ("applicationId"))
   ORDER BY ("applicationId" IS NOT NULL), pending DESC
   LIMIT $1`;

type QueueRow = { name: string; waiting: number; scheduled: number; active: number; oldest: number };
type BacklogRow = { application: string | null; pending: number; oldest: number };

/**
 * Sets the gauges read at scrape time: this process's pool connections (from memory), then the job queue and the
 * webhook backlog (two statements on the main pool). The gauges are reset first, so a queue or application that
 * emptied drops out instead of showing its last value. A database that does not answer leaves those gauges empty
 * and counts a scrape error; the scrape itself still answers.
 */
export async function collectScrapeGauges(): Promise<void> {
  const m = metrics();
  m.poolConnections.reset();
  m.poolWaiting.reset();
  for (const pool of poolStats()) {
    m.poolConnections.set({ pool: pool.pool, state: "in_use" }, pool.total - pool.idle);
    m.poolConnections.set({ pool: pool.pool, state: "idle" }, pool.idle);
    m.poolWaiting.set({ pool: pool.pool }, pool.waiting);
  }
  m.queueJobs.reset();
  m.queueOldestSeconds.reset();
  m.webhookBacklog.reset();
  m.webhookBacklogOldestSeconds.reset();
  if (!process.env.DATABASE_URL) return;
  try {
    const pool = pgPool();
    const { rows: exists } = await pool.query<{ present: boolean }>("SELECT to_regclass('pgboss.job') IS NOT NULL AS present");
    if (exists[0]?.present) {
      for (const row of (await pool.query<QueueRow>(QUEUE_SQL)).rows) {
        m.queueJobs.set({ queue: row.name, state: "waiting" }, row.waiting);
        m.queueJobs.set({ queue: row.name, state: "scheduled" }, row.scheduled);
        m.queueJobs.set({ queue: row.name, state: "active" }, row.active);
        m.queueOldestSeconds.set({ queue: row.name }, row.oldest);
      }
    }
    for (const row of (await pool.query<BacklogRow>(BACKLOG_SQL, [BACKLOG_TOP_APPLICATIONS + 1])).rows) {
      const application = row.application ?? "all";
      m.webhookBacklog.set({ application }, row.pending);
      m.webhookBacklogOldestSeconds.set({ application }, row.oldest);
    }
  } catch (error) {
    m.scrapeErrors.inc();
    log.warn({ err: (error as Error).message }, "metrics: database gauges could not be read");
  }
}
