import { recordAudit, withAuditAddress } from "@/lib/audit";
import { hashPassword } from "@/lib/auth";
import { db, withTransaction } from "@/lib/db";
import { deliverEmailQuietly, linkTo, renderEmail, type Delivery } from "@/lib/email";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n";
import { log } from "@/lib/log";
import { EMAIL_TOKEN_LIFETIME_MS, emailTokenState, hashEmailToken, issueEmailToken, lockEmailToken, EMAIL_TOKEN_PATTERN } from "./email-tokens";
import { AccountError } from "./errors";
import { passwordResetRequestSchema, resetPasswordSchema } from "./schemas";
import { claimPasswordCheck, claimPasswordResetRequest } from "./throttle";

export const PASSWORD_RESET_PATH = "/reset-password";

const INVALID_LINK = "This password reset link is not valid, was already used or has expired. Ask for a new one.";

/**
 * "Forgot password": when `email` has an account, emails it a single-use link to choose a new password (30 minutes;
 * only the newest link works). The caller answers the same whether or not it has one: this resolves the same way in
 * both cases, the email is sent without being waited on (its delivery time would tell), and the throttles count
 * every request by address and by email from the address (TooManyAttemptsError). Each request is on the audit
 * trail with the address. `sent` resolves once the email is handed over (tests wait on it; callers must not).
 */
export async function requestPasswordReset(input: { email: string; address: string; origin?: string }): Promise<{ sent: Promise<Delivery | null> }> {
  const { email } = passwordResetRequestSchema.parse({ email: input.email });
  await claimPasswordResetRequest(email, input.address);
  const developer = await db().developer.findUnique({ where: { email }, select: { id: true, email: true, name: true, locale: true } });
  const token = await withAuditAddress(input.address, () =>
    withTransaction("ReadCommitted", async (tx) => {
      await recordAudit(tx, {
        action: "auth.password_reset_request",
        actor: { type: "anonymous", label: email },
        targetType: "developer",
        targetId: developer?.id ?? email,
        after: { accountExists: developer !== null },
      });
      return developer ? (await issueEmailToken(tx, { developerId: developer.id, email: developer.email, purpose: "password_reset" })).token : null;
    }),
  );
  if (!developer || !token) return { sent: Promise.resolve(null) };
  const rendered = renderEmail(isLocale(developer.locale) ? developer.locale : DEFAULT_LOCALE, {
    kind: "password_reset",
    name: developer.name,
    address: developer.email,
    link: linkTo(`${PASSWORD_RESET_PATH}/${token}`, input.origin),
    minutes: EMAIL_TOKEN_LIFETIME_MS.password_reset / 60_000,
  });
  const sent = deliverEmailQuietly({ ...rendered, to: developer.email, kind: "password_reset", developerId: developer.id });
  sent.catch(() => log.error({ event: "email.password_reset_failed" }, "password reset email failed"));
  return { sent };
}

/** What a reset link shows before it is used: whether it still works, and for which address. */
export async function previewPasswordReset(token: string, now = new Date()): Promise<{ state: "valid"; email: string } | { state: "invalid" }> {
  if (!EMAIL_TOKEN_PATTERN.test(token)) return { state: "invalid" };
  const row = await db().emailToken.findUnique({ where: { tokenHash: hashEmailToken(token) }, select: { purpose: true, email: true, expiresAt: true, usedAt: true } });
  if (!row || row.purpose !== "password_reset" || emailTokenState(row, now) !== "valid") return { state: "invalid" };
  return { state: "valid", email: row.email };
}

/**
 * Sets a new password from a reset link: the link must be unused and unexpired and the account's address still the
 * one it was sent to. The password, the link's use and the audit entry (actor, address) are written together; the
 * link proves the mailbox, so an unverified address becomes verified. The caller then ends every session of the
 * account and sends the password-changed notice. The argon2 hash counts against the address's password checks.
 */
export async function resetPasswordWithToken(input: { token: string; password: string; address: string }, now = new Date()): Promise<{ developerId: string; email: string }> {
  const { token, password } = resetPasswordSchema.parse({ token: input.token, password: input.password });
  await claimPasswordCheck(input.address);
  const passwordHash = await hashPassword(password);
  return withAuditAddress(input.address, () =>
    withTransaction("ReadCommitted", async (tx) => {
      const row = await lockEmailToken(tx, token, "password_reset");
      if (!row || emailTokenState(row, now) !== "valid") throw new AccountError("invalid_token", INVALID_LINK);
      const developer = await tx.developer.findUnique({ where: { id: row.developerId }, select: { id: true, email: true, emailVerifiedAt: true } });
      if (!developer || developer.email !== row.email) throw new AccountError("invalid_token", INVALID_LINK);
      await tx.developer.update({ where: { id: developer.id }, data: { passwordHash, emailVerifiedAt: developer.emailVerifiedAt ?? now } });
      await tx.emailToken.updateMany({ where: { developerId: developer.id, purpose: "password_reset", usedAt: null }, data: { usedAt: now } });
      await recordAudit(tx, { action: "auth.password_reset", actor: { type: "developer", id: developer.id, label: developer.email }, targetType: "developer", targetId: developer.id, after: { email: developer.email, passwordChanged: true } });
      return { developerId: developer.id, email: developer.email };
    }),
  );
}
