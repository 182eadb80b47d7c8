import type { ChannelHandlers, NotificationListener } from "@/lib/db";
import type { KeyAuth } from "./key-auth";

/**
 * The channel the database notifies when an API key or its application changes in a way key authentication
 * depends on (revocation, status, production, allowlist, ...): a trigger on "ApiKey" and "Application" sends the
 * changed row's id (migration 20261123200000_key_change_notifications). Every writer is covered, whatever client it
 * uses, and every app instance hears it.
 */
export const KEY_CHANGES_CHANNEL = "chartkey_key_changes";

const MAX_ENTRIES = 10_000;

/**
 * Keys this process has authenticated, by the SHA-256 hash of the key, so that a request with a known key costs no
 * lookup. An entry is dropped when the database says its key or application changed, and the whole cache is
 * dropped, and bypassed, whenever the listener is not receiving those messages (not yet connected, or the
 * connection was lost): an entry can only be as stale as the notification's delivery. The per-request limit
 * statement closes even that window for what must end at once (see key-admission.ts).
 */
export class KeyCache {
  private readonly entries = new Map<string, KeyAuth>();
  private generation = 0;
  private readonly handlers: ChannelHandlers = {
    message: (id) => this.changed(id),
    reset: () => this.clear(),
  };

  constructor(private readonly listener: () => NotificationListener) {}

  /** The cached authentication for a key hash, if the cache is live and holds it. */
  get(secretHash: string): KeyAuth | undefined {
    if (!this.live()) return undefined;
    return this.entries.get(secretHash);
  }

  /**
   * A token to pass to `set` after reading a key from the database: the entry is kept only if no change message
   * (or reset) arrived meanwhile, so a read that raced with a revocation is never cached.
   */
  version(): number {
    return this.generation;
  }

  set(secretHash: string, auth: KeyAuth, version: number): void {
    if (version !== this.generation || !this.live()) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(secretHash, auth);
  }

  delete(secretHash: string): void {
    this.generation += 1;
    this.entries.delete(secretHash);
  }

  get size(): number {
    return this.entries.size;
  }

  private live(): boolean {
    const listener = this.listener();
    listener.subscribe(KEY_CHANGES_CHANNEL, this.handlers);
    return listener.live(KEY_CHANGES_CHANNEL);
  }

  /** A key (`key_…`) or an application (`app_…`) changed: drop every entry it concerns. */
  private changed(id: string): void {
    this.generation += 1;
    for (const [hash, auth] of this.entries) {
      if (auth.apiKeyId === id || auth.application.id === id) this.entries.delete(hash);
    }
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
