import { recordAudit, withAuditAddress } from "@/lib/audit";
import { db, withTransaction } from "@/lib/db";
import { deliverEmail, linkTo, renderEmail } from "@/lib/email";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n";
import { EMAIL_TOKEN_LIFETIME_MS, emailTokenState, issueEmailToken, lockEmailToken } from "./email-tokens";
import { AccountError } from "./errors";
import { claimVerificationEmail } from "./throttle";

export const VERIFY_EMAIL_PATH = "/verify-email";

/** What an unverified account is refused, and why (the dashboard shows it where the action is offered). */
export const EMAIL_UNVERIFIED_MESSAGE = "Confirm your email address first: follow the link we emailed you (the banner at the top of the dashboard sends a new one).";

/**
 * Emails the account a link to confirm its address (48 hours; only the newest link works), in its language; sign-up
 * sends the first, the dashboard's banner another. At most 5 an hour per account (TooManyAttemptsError). Answers
 * "already" for a verified account and sends nothing. Throws when the email cannot be sent, so the person is told.
 */
export async function sendVerificationEmail(developerId: string, origin?: string): Promise<"sent" | "already"> {
  const developer = await db().developer.findUnique({ where: { id: developerId }, select: { id: true, email: true, name: true, locale: true, emailVerifiedAt: true } });
  if (!developer) throw new AccountError("invalid_credentials", "The account no longer exists.");
  if (developer.emailVerifiedAt) return "already";
  await claimVerificationEmail(developer.id);
  const { token } = await withTransaction("ReadCommitted", (tx) => issueEmailToken(tx, { developerId: developer.id, email: developer.email, purpose: "email_verification" }));
  const rendered = renderEmail(isLocale(developer.locale) ? developer.locale : DEFAULT_LOCALE, {
    kind: "email_verification",
    name: developer.name,
    address: developer.email,
    link: linkTo(`${VERIFY_EMAIL_PATH}/${token}`, origin),
    hours: EMAIL_TOKEN_LIFETIME_MS.email_verification / 3_600_000,
  });
  await deliverEmail({ ...rendered, to: developer.email, kind: "email_verification", developerId: developer.id });
  return "sent";
}

/**
 * Confirms an account's address from its emailed link (single use, unexpired, and only while the account's address
 * is still the one it was sent to); audited with the address. Answers the account's email.
 */
export async function verifyEmail(input: { token: string; address: string }, now = new Date()): Promise<{ developerId: string; email: string }> {
  const invalid = () => new AccountError("invalid_token", "This confirmation link is not valid, was already used or has expired. Sign in and ask for a new one.");
  return withAuditAddress(input.address, () =>
    withTransaction("ReadCommitted", async (tx) => {
      const row = await lockEmailToken(tx, input.token, "email_verification");
      if (!row || emailTokenState(row, now) !== "valid") throw invalid();
      const developer = await tx.developer.findUnique({ where: { id: row.developerId }, select: { id: true, email: true, emailVerifiedAt: true } });
      if (!developer || developer.email !== row.email) throw invalid();
      await tx.emailToken.update({ where: { id: row.id }, data: { usedAt: now } });
      if (!developer.emailVerifiedAt) {
        await tx.developer.update({ where: { id: developer.id }, data: { emailVerifiedAt: now } });
        await recordAudit(tx, { action: "auth.email_verify", actor: { type: "developer", id: developer.id, label: developer.email }, targetType: "developer", targetId: developer.id, after: { email: developer.email } });
      }
      return { developerId: developer.id, email: developer.email };
    }),
  );
}

/** Whether the account has confirmed its address. */
export async function emailVerified(developerId: string): Promise<boolean> {
  const developer = await db().developer.findUnique({ where: { id: developerId }, select: { emailVerifiedAt: true } });
  return Boolean(developer?.emailVerifiedAt);
}

/** For the actions an unverified account may not take (live keys, invitations): throws `email_unverified`. */
export async function requireVerifiedEmail(developerId: string): Promise<void> {
  if (!(await emailVerified(developerId))) throw new AccountError("email_unverified", EMAIL_UNVERIFIED_MESSAGE);
}
