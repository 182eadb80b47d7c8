import { db } from "@/lib/db";
import { deliverEmailQuietly, linkTo, renderEmail } from "@/lib/email";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n";
import { INVITATION_LIFETIME_MS, invitationPath, type Invitation } from "./invitations";

/**
 * Emails an invitation's link to the invited address, in the language of the account it belongs to (when one
 * exists) or else the inviter's. Answers whether it was handed over; a failure is logged, and the owner still has
 * the link to copy.
 */
export async function sendInvitationEmail(input: { invitation: Invitation; token: string; origin?: string }): Promise<boolean> {
  const { invitation } = input;
  const [application, inviter, invitee] = await Promise.all([
    db().application.findUnique({ where: { id: invitation.applicationId }, select: { name: true } }),
    db().developer.findUnique({ where: { id: invitation.invitedById }, select: { name: true, email: true, locale: true } }),
    db().developer.findUnique({ where: { email: invitation.email }, select: { locale: true } }),
  ]);
  const locale = [invitee?.locale, inviter?.locale].find(isLocale) ?? DEFAULT_LOCALE;
  const rendered = renderEmail(locale, {
    kind: "invitation",
    address: invitation.email,
    link: linkTo(invitationPath(input.token), input.origin),
    inviter: inviter ? `${inviter.name} (${inviter.email})` : "A Chartkey developer",
    application: application?.name ?? "an application",
    role: invitation.role,
    days: Math.round(INVITATION_LIFETIME_MS / 86_400_000),
  });
  return (await deliverEmailQuietly({ ...rendered, to: invitation.email, kind: "invitation" })) !== null;
}
