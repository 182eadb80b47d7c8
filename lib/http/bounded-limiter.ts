/**
 * A fixed-window counter per key whose memory is bounded whatever keys arrive: at most `maxKeys` windows are
 * kept, and when a new key would exceed that, the oldest windows are dropped first (Map iteration is insertion
 * order). Dropping a window only forgives a client its count, so a flood of fresh addresses costs a fixed amount
 * of memory instead of growing with them.
 */
export class BoundedWindowLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    readonly points: number,
    readonly windowMs: number,
    readonly maxKeys = 50_000,
  ) {}

  consume(key: string, now = Date.now()): { allowed: boolean; remaining: number; resetMs: number } {
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs) {
      this.windows.delete(key);
      window = { startedAt: now, count: 0 };
      this.makeRoom();
      this.windows.set(key, window);
    }
    window.count += 1;
    const resetMs = window.startedAt + this.windowMs - now;
    return { allowed: window.count <= this.points, remaining: Math.max(0, this.points - window.count), resetMs };
  }

  get size(): number {
    return this.windows.size;
  }

  private makeRoom(): void {
    while (this.windows.size >= this.maxKeys) {
      const oldest = this.windows.keys().next();
      if (oldest.done) return;
      this.windows.delete(oldest.value);
    }
  }
}
