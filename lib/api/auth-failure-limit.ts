import { RateLimiterRes } from "rate-limiter-flexible";
import { authFailuresPerMinute } from "@/lib/config";
import { deploymentSetPolicy, postgresLimiter, rateLimited, type RateLimitPolicy, UNKNOWN_ADDRESS } from "@/lib/http";
import { processState } from "@/lib/process-state";

/**
 * Failed authentications per network address (an IPv4 address or an IPv6 /64) per minute (deployment-set), counted
 * across every instance. Only requests without a valid key are refused by it (lib/api/steps.ts, authentication).
 */
export const AUTH_FAILURE_POLICY: RateLimitPolicy = deploymentSetPolicy("auth-failure", authFailuresPerMinute, 60);

// Addresses this instance has seen exceed the limit, until their window ends. Checked only after a key failed, so
// requests with a valid key never pay for it, and a blocked address's further failures cost no database write.
const blockedUntil = processState("api.auth-failure-blocked", () => new Map<string, number>());
const MAX_BLOCKED = 10_000;

/** Throws 429 `rate_limited` if the address spent its failures for this window (as far as this instance knows). */
export function assertAddressMayAuthenticate(address: string, now = Date.now()): void {
  const until = blockedUntil.get(address);
  if (until === undefined) return;
  if (until <= now) {
    blockedUntil.delete(address);
    return;
  }
  throw rateLimited(AUTH_FAILURE_POLICY, 0, until - now);
}

/**
 * Counts one failed authentication for the address. The failure that spends the window is itself answered 429,
 * and so is every request from the address until the window ends.
 */
export async function recordAuthFailure(address: string, now = Date.now()): Promise<void> {
  if (address === UNKNOWN_ADDRESS) return;
  try {
    await postgresLimiter(AUTH_FAILURE_POLICY).consume(address, 1);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    if (blockedUntil.size >= MAX_BLOCKED) blockedUntil.delete(blockedUntil.keys().next().value as string);
    blockedUntil.set(address, now + rejection.msBeforeNext);
    throw rateLimited(AUTH_FAILURE_POLICY, 0, rejection.msBeforeNext);
  }
}
