import { log } from "@/lib/log";
import { deliverEmailQuietly } from "./mailer";
import { linkTo, recipientOf } from "./recipients";
import { renderEmail, type SecurityNoticeKind } from "./templates";

/** Where a notice sends the account's owner to review what happened. */
export const SECURITY_PAGE_PATH = "/dashboard/account/security";

/**
 * Tells an account's owner, by email in their language, that something changed its security (a sign-in from a new
 * device, a second factor added or removed, a recovery code used, a signing secret rotated, the password changed).
 * `detail` fills the message: `device` and `address` (new device), `factor` (the factor's name), `remaining`
 * (recovery codes left), `application` (the rotated secret's application). Never throws for a delivery failure:
 * the change it reports has happened either way; the failure is logged.
 */
export async function sendSecurityNotice(developerId: string, notice: { kind: SecurityNoticeKind; detail?: Record<string, string> }): Promise<void> {
  try {
    const recipient = await recipientOf(developerId);
    if (!recipient) return;
    const rendered = renderEmail(recipient.locale, {
      kind: "security_notice",
      name: recipient.name,
      address: recipient.email,
      link: linkTo(SECURITY_PAGE_PATH),
      notice: notice.kind,
      detail: notice.detail ?? {},
      at: new Date(),
    });
    await deliverEmailQuietly({ ...rendered, to: recipient.email, kind: `security_notice.${notice.kind}`, developerId });
  } catch (error) {
    log.error({ event: "email.security_notice_failed", kind: notice.kind, err: (error as Error).name }, "security notice could not be prepared");
  }
}
