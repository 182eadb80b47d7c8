/**
 * The accounts named operators by the deployment: `CHARTKEY_OPERATOR_EMAILS`, a comma-separated list of sign-in
 * emails (compared lowercased, as accounts store them). Empty or unset: the deployment's first account is its only
 * operator (lib/operators). Read on every check, so changing the setting and restarting takes effect at once.
 */
export function operatorEmails(): string[] {
  return (process.env.CHARTKEY_OPERATOR_EMAILS ?? "")
    .split(",")
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email.length > 0);
}
