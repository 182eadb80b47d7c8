import type PgBoss from "pg-boss";
import { NotificationListener } from "@/lib/db";
import { JOBS_SENT_CHANNEL } from "@/lib/queue";

/**
 * Wakes a queue's pollers in this worker when any process announces a job on it (see announceJobs): an idle
 * poller fetches at once instead of at its next poll, and a busy one fetches again as soon as its batch is done.
 * The worker's own LISTEN connection, closed when it stops; polling carries on regardless, so a lost connection
 * only costs the latency it saved.
 */
export class PollerWakeups {
  private readonly pollers = new Map<string, string[]>();
  private readonly listener: NotificationListener;
  private readonly handlers = { message: (queue: string) => this.wake(queue), reset: () => {} };

  constructor(
    databaseUrl: string,
    private readonly boss: PgBoss,
  ) {
    this.listener = new NotificationListener(databaseUrl);
  }

  /** Wakes `pollerId` whenever a job is announced on `queue`. */
  add(queue: string, pollerId: string): void {
    const ids = this.pollers.get(queue) ?? [];
    ids.push(pollerId);
    this.pollers.set(queue, ids);
    this.listener.subscribe(JOBS_SENT_CHANNEL, this.handlers);
  }

  /** Whether announcements are being received (the LISTEN is up). */
  get live(): boolean {
    return this.listener.live(JOBS_SENT_CHANNEL);
  }

  close(): Promise<void> {
    return this.listener.close();
  }

  private wake(queue: string): void {
    for (const id of this.pollers.get(queue) ?? []) this.boss.notifyWorker(id);
  }
}
