import { sendSecurityNotice, type SecurityNoticeKind } from "@/lib/email";

/**
 * Tells the account's owner by email (lib/email, in their language) of a change to its security: a sign-in from a
 * new device, a second factor added or removed, a recovery code used, a signing secret rotated. sendSecurityNotice
 * never throws for a delivery failure (the change happened either way; the failure is logged).
 */
export async function notifySecurity(developerId: string, kind: Extract<SecurityNoticeKind, "new_device_sign_in" | "second_factor_added" | "second_factor_removed" | "recovery_code_used" | "signing_secret_rotated">, detail: Record<string, string> = {}): Promise<void> {
  await sendSecurityNotice(developerId, { kind, detail });
}
