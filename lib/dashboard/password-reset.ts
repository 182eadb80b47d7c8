import { headers } from "next/headers";
import { ZodError } from "zod";
import { endOtherSessions } from "@/lib/account-security";
import { AccountError, requestPasswordReset, resetPasswordWithToken, TooManyAttemptsError } from "@/lib/accounts";
import { sendSecurityNotice } from "@/lib/email";
import { headersClientAddress } from "@/lib/http";
import { dashboardOrigin } from "./request-origin";

export type PasswordResetResult = { ok: true } | { ok: false; error: string };

/**
 * "Forgot password" from the sign-in page: the same answer whether or not the address has an account (only a
 * throttle's refusal, counted for every address alike, or an address that is not one, differ).
 */
export async function askForPasswordReset(email: string): Promise<PasswordResetResult> {
  const address = headersClientAddress(await headers());
  try {
    await requestPasswordReset({ email, address, origin: await dashboardOrigin() });
    return { ok: true };
  } catch (error) {
    if (error instanceof TooManyAttemptsError) return { ok: false, error: error.message };
    if (error instanceof ZodError) return { ok: false, error: "Enter a valid email address." };
    throw error;
  }
}

/**
 * A new password from a reset link: set (audited with the address), then every session of the account ends
 * (whoever knew the old password is signed out) and the owner gets the password-changed notice.
 */
export async function completePasswordReset(input: { token: string; password: string }): Promise<PasswordResetResult> {
  const address = headersClientAddress(await headers());
  try {
    const { developerId } = await resetPasswordWithToken({ ...input, address });
    await endOtherSessions(developerId, null, "password_reset");
    await sendSecurityNotice(developerId, { kind: "password_changed" });
    return { ok: true };
  } catch (error) {
    if (error instanceof AccountError) return { ok: false, error: error.message };
    if (error instanceof ZodError) return { ok: false, error: error.issues[0]?.message ?? "Check the form and try again." };
    throw error;
  }
}
