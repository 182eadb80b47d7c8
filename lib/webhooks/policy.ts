/**
 * How deliveries are retried. Eight attempts: the first at once, then waits growing fourfold from 16 seconds
 * (16 s, 64 s, ~4 min, ~17 min, ~68 min, ~4.5 h, ~18 h: about 24 hours in all), each with ±10% jitter so a
 * receiver that comes back is not hit by every delivery at the same instant. After the eighth failure the
 * delivery is `failed` and can be re-sent.
 */
export type DeliveryPolicy = {
  maxAttempts: number;
  /** The wait before attempt `attempt + 1`, after attempt `attempt` (1-based) failed. */
  backoffMs: (attempt: number) => number;
  /**
   * How long a claimed attempt may run before any worker treats its worker as dead and claims it again: longer than the
   * wait for a place at its endpoint plus the timeout, so a live attempt is never doubled.
   */
  leaseMs: number;
  /** The receiver's whole answer must arrive within this time. */
  timeoutMs: number;
};

export const MAX_ATTEMPTS = 8;
const BASE_BACKOFF_MS = 16_000;

export function backoffMs(attempt: number, scale = 1, random = Math.random): number {
  const base = BASE_BACKOFF_MS * 4 ** (attempt - 1);
  return Math.round(base * (0.9 + 0.2 * random()) * scale);
}

/**
 * The policy in force. `CHARTKEY_WEBHOOK_TIME_SCALE` (default 1) shrinks the backoff, for tests only; the timeout
 * and the lease stay as they are.
 */
export function deliveryPolicy(): DeliveryPolicy {
  const scale = Number(process.env.CHARTKEY_WEBHOOK_TIME_SCALE ?? "1") || 1;
  return {
    maxAttempts: MAX_ATTEMPTS,
    backoffMs: (attempt) => backoffMs(attempt, scale),
    leaseMs: 20_000,
    timeoutMs: 10_000,
  };
}
