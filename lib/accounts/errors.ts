export type AccountErrorCode = "email_taken" | "invalid_credentials" | "too_many_attempts" | "invalid_token" | "email_unverified";

/** A refused sign-up or sign-in; the UI maps the code to a message. */
export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AccountError";
  }
}

/**
 * Which limit refused: `account` is this account's failures from this address, `address` the address's failures
 * across accounts, `rate` the address's password checks per minute (right or wrong). Each is counted per address
 * (IPv6: per /64), so the owner signing in from elsewhere is never refused because of a guesser.
 */
export type ThrottleScope = "account" | "address" | "rate" | "reset" | "verification";

const REFUSALS: Record<ThrottleScope, string> = {
  account: "Too many failed sign-in attempts for this account from your network address.",
  address: "Too many failed sign-in attempts from your network address.",
  rate: "Too many sign-in and sign-up attempts from your network address.",
  reset: "Too many password reset requests from your network address.",
  verification: "Too many verification emails for this account.",
};

/** Refused by a throttle: wait `retryAfterSeconds`. The message says which limit and when to try again. */
export class TooManyAttemptsError extends AccountError {
  constructor(
    readonly retryAfterSeconds: number,
    readonly scope: ThrottleScope,
  ) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    super("too_many_attempts", `${REFUSALS[scope]} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
    this.name = "TooManyAttemptsError";
  }
}
