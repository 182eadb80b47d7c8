import pg from "pg";
import { databaseTimeouts } from "./timeouts";

export type ChannelHandlers = {
  /** A NOTIFY on the channel, with its payload. */
  message: (payload: string) => void;
  /** Messages may have been missed (the connection was lost or closed): drop whatever they would have invalidated. */
  reset: () => void;
};

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 10_000;
const HEALTH_CHECK_MS = 15_000;
const HEALTH_TIMEOUT_MS = 5_000;

/**
 * One connection that LISTENs to PostgreSQL notifications for its subscribers. It is `live` on a channel only while
 * the connection is up and its LISTEN has been acknowledged; whenever that stops being true (an error, the server
 * closing the connection, a health check that does not come back) every subscriber is reset before anything else
 * happens, and the listener reconnects with backoff until it is closed. A subscriber that caches what messages
 * invalidate may therefore cache only while `live(channel)` is true, and must drop its cache on `reset`.
 */
export class NotificationListener {
  private readonly subscribers = new Map<string, Set<ChannelHandlers>>();
  private readonly listening = new Set<string>();
  private client: pg.Client | null = null;
  private starting: Promise<void> | null = null;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private healthTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(readonly url: string) {}

  /** Adds `handlers` to `channel` (once; subscribing the same handlers again does nothing) and connects if needed. */
  subscribe(channel: string, handlers: ChannelHandlers): void {
    if (this.closed) return;
    let set = this.subscribers.get(channel);
    if (!set) {
      set = new Set();
      this.subscribers.set(channel, set);
    }
    if (set.has(handlers)) return;
    set.add(handlers);
    if (this.client && !this.starting && !this.listening.has(channel)) void this.listenOn(this.client, channel);
    else this.connect();
  }

  /** Whether messages on `channel` are being received now. */
  live(channel: string): boolean {
    return !this.closed && this.listening.has(channel);
  }

  /** Disconnects for good; subscribers are reset. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.lost();
    await client?.end().catch(() => {});
  }

  private connect(): void {
    if (this.closed || this.client || this.starting || this.retryTimer) return;
    // Bounded like the pools (lib/db/timeouts.ts): a connection attempt to a silent server would otherwise stay
    // `starting` for as long as it is silent, and no reconnection would be tried meanwhile.
    const { connectMs, queryMs } = databaseTimeouts();
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, connectionTimeoutMillis: connectMs, query_timeout: queryMs });
    client.on("notification", (notification) => {
      if (client !== this.client) return;
      for (const handlers of this.subscribers.get(notification.channel) ?? []) handlers.message(notification.payload ?? "");
    });
    client.on("error", () => this.drop(client));
    client.on("end", () => this.drop(client));
    this.client = client;
    this.starting = (async () => {
      try {
        await client.connect();
        for (;;) {
          const pending = [...this.subscribers.keys()].filter((channel) => !this.listening.has(channel));
          if (pending.length === 0 || client !== this.client) break;
          for (const channel of pending) await this.listenOn(client, channel);
        }
        if (client !== this.client) return;
        this.retryMs = RETRY_MIN_MS;
        this.healthTimer = setInterval(() => void this.checkHealth(client), HEALTH_CHECK_MS);
        this.healthTimer.unref();
      } catch {
        this.drop(client);
      } finally {
        this.starting = null;
      }
    })();
  }

  private async listenOn(client: pg.Client, channel: string): Promise<void> {
    try {
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      if (client === this.client) this.listening.add(channel);
    } catch {
      this.drop(client);
    }
  }

  private async checkHealth(client: pg.Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("listener health check timed out")), HEALTH_TIMEOUT_MS);
    });
    try {
      await Promise.race([client.query("SELECT 1"), timedOut]);
    } catch {
      this.drop(client);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The connection `client` is gone: reset subscribers, then try again later. */
  private drop(client: pg.Client): void {
    if (client !== this.client) return;
    this.lost();
    void client.end().catch(() => {});
    if (this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  private lost(): void {
    this.client = null;
    this.listening.clear();
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.healthTimer = null;
    for (const set of this.subscribers.values()) for (const handlers of set) handlers.reset();
  }
}
