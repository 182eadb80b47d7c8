import { createHash } from "node:crypto";
import { RateLimiterRes } from "rate-limiter-flexible";
import { hashPassword, verifyPassword } from "@/lib/auth";
import { db } from "@/lib/db";
import { postgresLimiter, type RateLimitPolicy, UNKNOWN_ADDRESS } from "@/lib/http";
import { AccountError, TooManyAttemptsError } from "./errors";
import { signInSchema } from "./schemas";
import type { DeveloperAccount } from "./sign-up";

/** Failed sign-ins allowed per account (email) and per network address in a 15-minute window, across instances. */
export const SIGN_IN_ACCOUNT_POLICY: RateLimitPolicy = { name: "signin-account", points: 5, windowSeconds: 15 * 60 };
export const SIGN_IN_ADDRESS_POLICY: RateLimitPolicy = { name: "signin-address", points: 20, windowSeconds: 15 * 60 };

// Verified against when the email is unknown, so an unknown email costs the same argon2 work as a wrong password.
let dummyHash: Promise<string> | null = null;

function accountKey(email: string): string {
  // The store's key column is 255 characters; an email may be 254.
  return createHash("sha256").update(email).digest("hex").slice(0, 40);
}

/**
 * Counts this attempt before the password is checked (a success gives it back), so attempts racing each other cannot
 * all pass a check made before any of them counted.
 */
async function claimAttempt(policy: RateLimitPolicy, key: string, scope: "account" | "address"): Promise<void> {
  try {
    await postgresLimiter(policy).consume(key, 1);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw new TooManyAttemptsError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), scope);
    throw rejection;
  }
}

/**
 * Checks a dashboard sign-in. Failures are counted per account and per address (SIGN_IN_*_POLICY); while either
 * is spent, attempts throw TooManyAttemptsError without checking the password. A wrong password and an unknown
 * email both throw `invalid_credentials` after the same argon2 work. A success clears the account's count and gives
 * the address back its attempt.
 */
export async function verifySignIn(input: { email: string; password: string; address: string }): Promise<DeveloperAccount> {
  const parsed = signInSchema.safeParse(input);
  if (!parsed.success) throw new AccountError("invalid_credentials", "The email or password is incorrect.");
  const { email, password } = parsed.data;
  const account = accountKey(email);
  const address = input.address && input.address !== UNKNOWN_ADDRESS ? input.address : null;

  await claimAttempt(SIGN_IN_ACCOUNT_POLICY, account, "account");
  if (address) {
    try {
      await claimAttempt(SIGN_IN_ADDRESS_POLICY, address, "address");
    } catch (error) {
      // Refused by the address: the account's attempt was never tried.
      await postgresLimiter(SIGN_IN_ACCOUNT_POLICY).reward(account, 1);
      throw error;
    }
  }

  const developer = await db().developer.findUnique({ where: { email }, select: { id: true, email: true, name: true, createdAt: true, passwordHash: true } });
  const valid = developer
    ? await verifyPassword(developer.passwordHash, password)
    : await verifyPassword(await (dummyHash ??= hashPassword("chartkey-dummy-password")), password).then(() => false);
  if (!developer || !valid) throw new AccountError("invalid_credentials", "The email or password is incorrect.");
  await postgresLimiter(SIGN_IN_ACCOUNT_POLICY).delete(account);
  if (address) await postgresLimiter(SIGN_IN_ADDRESS_POLICY).reward(address, 1);
  return { id: developer.id, email: developer.email, name: developer.name, createdAt: developer.createdAt };
}
