import { recordAudit, withAuditAddress } from "@/lib/audit";
import { hashPassword, verifyPassword } from "@/lib/auth";
import { db } from "@/lib/db";
import { AccountError } from "./errors";
import { signInSchema } from "./schemas";
import type { DeveloperAccount } from "./sign-up";
import { claimPasswordCheck, claimSignInAttempt } from "./throttle";
import { processState } from "@/lib/process-state";

// Verified against when the email is unknown, so an unknown email costs the same argon2 work as a wrong password.
const dummy = processState("accounts.dummy-hash", () => ({ hash: null as Promise<string> | null }));

/**
 * Checks a dashboard sign-in from `address` (the client's, as the platform's server recorded it). The attempt is
 * counted by the throttles of ./throttle.ts first (password checks, then failures per address and per account from
 * the address); while one is spent, attempts from that address throw TooManyAttemptsError without checking the
 * password, and the account's owner signs in from any other address. A wrong password and an unknown email both
 * throw `invalid_credentials` after the same argon2 work. A success clears the account's failures from the address
 * and gives the address back its attempt. Each checked attempt is on the audit trail, success or failure (refusals
 * by a throttle are not: they check nothing, and recording them would let a flood fill the trail).
 */
export async function verifySignIn(input: { email: string; password: string; address: string }): Promise<DeveloperAccount> {
  const parsed = signInSchema.safeParse(input);
  if (!parsed.success) throw new AccountError("invalid_credentials", "The email or password is incorrect.");
  const { email, password } = parsed.data;

  await claimPasswordCheck(input.address);
  const attempt = await claimSignInAttempt(email, input.address);

  const developer = await db().developer.findUnique({ where: { email }, select: { id: true, email: true, name: true, createdAt: true, passwordHash: true } });
  const valid = developer
    ? await verifyPassword(developer.passwordHash, password)
    : await verifyPassword(await (dummy.hash ??= hashPassword("chartkey-dummy-password")), password).then(() => false);
  await withAuditAddress(input.address, () =>
    developer && valid
      ? recordAudit(db(), { action: "auth.sign_in", actor: { type: "developer", id: developer.id, label: developer.email }, targetType: "developer", targetId: developer.id })
      : recordAudit(db(), { action: "auth.sign_in_failed", actor: { type: "anonymous", label: email }, targetType: "developer", targetId: developer?.id ?? email, after: { reason: developer ? "wrong_password" : "unknown_email" } }),
  );
  if (!developer || !valid) throw new AccountError("invalid_credentials", "The email or password is incorrect.");
  await attempt.succeeded();
  return { id: developer.id, email: developer.email, name: developer.name, createdAt: developer.createdAt };
}
