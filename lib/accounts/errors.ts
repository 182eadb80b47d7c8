export type AccountErrorCode = "email_taken" | "invalid_credentials" | "too_many_attempts";

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

/** Too many failed sign-ins for the account or from the address: wait `retryAfterSeconds`. */
export class TooManyAttemptsError extends AccountError {
  constructor(
    readonly retryAfterSeconds: number,
    readonly scope: "account" | "address",
  ) {
    super("too_many_attempts", `Too many sign-in attempts; try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`);
    this.name = "TooManyAttemptsError";
  }
}
