/**
 * The pure rules of issue 57: who must enrol a second factor, and how recent a second factor must be for a
 * sensitive action (step-up).
 */

/** A sensitive action needs a second factor given within this many minutes, else the dashboard asks again. */
export const STEP_UP_MINUTES = 5;

/** Whether a second factor given at `secondFactorAt` still counts for a sensitive action at `now`. */
export function stepUpFresh(secondFactorAt: Date | null | undefined, now: Date = new Date()): boolean {
  if (!secondFactorAt) return false;
  const age = now.getTime() - secondFactorAt.getTime();
  // A time in the future (clock skew between instances) counts only within a minute.
  return age >= -60_000 && age <= STEP_UP_MINUTES * 60_000;
}

/** Why an account must have a second factor, or null when it need not. */
export type EnrolmentReason = "deployment" | "operator" | "production" | null;

/**
 * An operator, and every member of an application with production enabled or requested, must enrol before reaching
 * live keys, secrets or operator pages; `CHARTKEY_REQUIRE_SECOND_FACTOR=all` requires it of every account.
 */
export function enrolmentReason(account: { requiredForAll: boolean; operator: boolean; productionMember: boolean }): EnrolmentReason {
  if (account.operator) return "operator";
  if (account.productionMember) return "production";
  if (account.requiredForAll) return "deployment";
  return null;
}

/** Whether an account must give a second factor (and step up) before a sensitive action. */
export function mustGiveSecondFactor(account: { enrolled: boolean; reason: EnrolmentReason }): boolean {
  return account.enrolled || account.reason !== null;
}
