type Waiter = { admit: (admitted: boolean) => void; timer: NodeJS.Timeout };

/**
 * The attempts a worker holds, per endpoint and in all. An endpoint (a receiver's origin) runs at most
 * `perEndpoint` attempts at once, as many as its connection pool holds, so a running attempt never waits for a
 * socket behind a slow receiver's; the next ones wait in its lane, each for at most `maxWaitMs`, and one that
 * times out is turned away (the caller gives its attempt back for later). A fast receiver's lane drains within
 * milliseconds; a slow one's turns its backlog away instead of holding it. An admitted attempt leaves its endpoint
 * once its request is done (`leave`) and is held until its outcome is logged (`finish`); `room()` lets the caller
 * stop taking work while `total` attempts are held (running, waiting, or logging).
 */
export class EndpointLanes {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();
  private held = 0;
  private roomWaiters: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];

  constructor(
    readonly perEndpoint: number,
    readonly total: number,
    readonly maxWaitMs: number,
  ) {}

  /**
   * Resolves true once the attempt may run (then `leave` and `finish` must follow), false if it waited `maxWaitMs`
   * in vain (then it is no longer held).
   */
  enter(endpoint: string): Promise<boolean> {
    this.held++;
    const running = this.running.get(endpoint) ?? 0;
    if (running < this.perEndpoint) {
      this.running.set(endpoint, running + 1);
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(endpoint) ?? [];
      this.waiting.set(endpoint, queue);
      const waiter: Waiter = {
        admit: resolve,
        timer: setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          if (queue.length === 0) this.waiting.delete(endpoint);
          this.release();
          resolve(false);
        }, this.maxWaitMs),
      };
      queue.push(waiter);
    });
  }

  /** Ends a running attempt's request: the endpoint's next waiting one runs in its place. */
  leave(endpoint: string): void {
    const queue = this.waiting.get(endpoint);
    const next = queue?.shift();
    if (next) {
      if (queue!.length === 0) this.waiting.delete(endpoint);
      clearTimeout(next.timer);
      next.admit(true);
    } else {
      const running = this.running.get(endpoint) ?? 0;
      if (running <= 1) this.running.delete(endpoint);
      else this.running.set(endpoint, running - 1);
    }
  }

  /** Ends an admitted attempt's hold, once it has left its endpoint and its outcome is logged. */
  finish(): void {
    this.release();
  }

  /** Attempts running to `endpoint`. */
  runningTo(endpoint: string): number {
    return this.running.get(endpoint) ?? 0;
  }

  /** How many more attempts may be held before `total`. */
  free(): number {
    return Math.max(0, this.total - this.held);
  }

  /** Resolves once fewer than `total` attempts are running or waiting. */
  room(): Promise<void> {
    if (this.held < this.total) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** Resolves once no attempt is running or waiting. */
  idle(): Promise<void> {
    if (this.held === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private release(): void {
    this.held--;
    if (this.held < this.total) this.wake("roomWaiters");
    if (this.held === 0) this.wake("idleWaiters");
  }

  private wake(which: "roomWaiters" | "idleWaiters"): void {
    const waiters = this[which];
    this[which] = [];
    for (const resolve of waiters) resolve();
  }
}

/** The lane an attempt to `url` takes: its origin (scheme, host, port), as the connection pool groups sockets. */
export function endpointOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return url;
  }
}
