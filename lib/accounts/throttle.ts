import { createHash } from "node:crypto";
import { RateLimiterRes } from "rate-limiter-flexible";
import { passwordChecksPerMinute } from "@/lib/config";
import { addressPrefix, deploymentSetPolicy, postgresLimiter, type RateLimitPolicy } from "@/lib/http";
import { TooManyAttemptsError, type ThrottleScope } from "./errors";

/**
 * The sign-in throttles, all counted in PostgreSQL (so across instances) and all keyed by the caller's network
 * address (an IPv4 address or an IPv6 /64): they slow the guesser down, never the account's owner elsewhere.
 * - failed sign-ins per account and address: 5 per 15 minutes;
 * - failed sign-ins per address, across accounts: 20 per 15 minutes;
 * - password checks (argon2id, sign-ins and sign-ups, right or wrong) per address: deployment-set, 30 a minute,
 *   which bounds the CPU any one network can make the dashboard spend.
 */
export const SIGN_IN_ACCOUNT_POLICY: RateLimitPolicy = { name: "signin-account-address", points: 5, windowSeconds: 15 * 60 };
export const SIGN_IN_ADDRESS_POLICY: RateLimitPolicy = { name: "signin-address", points: 20, windowSeconds: 15 * 60 };
export const PASSWORD_CHECK_POLICY: RateLimitPolicy = deploymentSetPolicy("password-checks", passwordChecksPerMinute, 60);
/**
 * Password reset requests: 10 per address and 3 per email from one address per 15 minutes, counted whether or not
 * the email has an account (so a refusal says nothing about that), like failed sign-ins.
 */
export const PASSWORD_RESET_ADDRESS_POLICY: RateLimitPolicy = { name: "reset-address", points: 10, windowSeconds: 15 * 60 };
export const PASSWORD_RESET_ACCOUNT_POLICY: RateLimitPolicy = { name: "reset-account-address", points: 3, windowSeconds: 15 * 60 };
/** Verification emails per account (sign-up's first one included): 5 an hour. */
export const VERIFICATION_EMAIL_POLICY: RateLimitPolicy = { name: "verification-emails", points: 5, windowSeconds: 60 * 60 };

/** The store's key column is 255 characters; an email may be 254 and an address prefix 43. */
function accountAddressKey(email: string, prefix: string): string {
  return createHash("sha256").update(`${email}\n${prefix}`).digest("hex").slice(0, 40);
}

/**
 * Counts one point before the work it guards (a success gives back what it should), so attempts racing each other
 * cannot all pass a check made before any of them counted.
 */
async function claim(policy: RateLimitPolicy, key: string, scope: ThrottleScope): Promise<void> {
  try {
    await postgresLimiter(policy).consume(key, 1);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw new TooManyAttemptsError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), scope);
    throw rejection;
  }
}

/** Before any argon2 work for an unauthenticated caller: counts it against the address's password checks. */
export function claimPasswordCheck(address: string): Promise<void> {
  return claim(PASSWORD_CHECK_POLICY, addressPrefix(address), "rate");
}

/**
 * Claims one sign-in attempt for `email` from `address` (after `claimPasswordCheck`): one failure counted on the
 * address and on the account from the address, until `succeeded` gives them back. Throws TooManyAttemptsError
 * naming the limit that refused.
 */
export async function claimSignInAttempt(email: string, address: string): Promise<{ succeeded: () => Promise<void> }> {
  const prefix = addressPrefix(address);
  const account = accountAddressKey(email, prefix);
  await claim(SIGN_IN_ADDRESS_POLICY, prefix, "address");
  try {
    await claim(SIGN_IN_ACCOUNT_POLICY, account, "account");
  } catch (error) {
    // Refused for the account: the address's attempt was never tried.
    await postgresLimiter(SIGN_IN_ADDRESS_POLICY).reward(prefix, 1);
    throw error;
  }
  return {
    succeeded: async () => {
      await postgresLimiter(SIGN_IN_ACCOUNT_POLICY).delete(account);
      await postgresLimiter(SIGN_IN_ADDRESS_POLICY).reward(prefix, 1);
    },
  };
}

/** Before a password reset email: one request counted on the address and on the email from the address. */
export async function claimPasswordResetRequest(email: string, address: string): Promise<void> {
  const prefix = addressPrefix(address);
  await claim(PASSWORD_RESET_ADDRESS_POLICY, prefix, "reset");
  await claim(PASSWORD_RESET_ACCOUNT_POLICY, accountAddressKey(email, prefix), "reset");
}

/** Before a verification email: one counted on the account. */
export function claimVerificationEmail(developerId: string): Promise<void> {
  return claim(VERIFICATION_EMAIL_POLICY, developerId, "verification");
}
