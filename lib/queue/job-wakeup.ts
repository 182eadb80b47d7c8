import type PgBoss from "pg-boss";

/**
 * The channel a sender notifies (payload: the queue's name) once a job it sent can run now. Workers LISTEN to it
 * and wake that queue's idle pollers at once, on whatever process sent the job, so a job waits for the database
 * round trip instead of the poller's next poll (seconds). Polling stays the fallback: a missed notification costs
 * one polling interval, never the job.
 */
export const JOBS_SENT_CHANNEL = "chartkey_jobs_sent";

/** Tells every worker that `queue` has a job to run now (after the job's insert has committed). */
export async function announceJobs(boss: PgBoss, queue: string): Promise<void> {
  await boss.getDb().executeSql("SELECT pg_notify($1, $2)", [JOBS_SENT_CHANNEL, queue]);
}
