"use server";

import { redirect } from "next/navigation";
import { askForPasswordReset, completePasswordReset, confirmEmailAddress, type PasswordResetResult, type VerificationResult } from "@/lib/dashboard";

/** "Forgot password": emails a reset link when the address has an account; the answer is the same either way. */
export async function forgotPasswordAction(input: { email: string }): Promise<PasswordResetResult> {
  return askForPasswordReset(typeof input?.email === "string" ? input.email : "");
}

/** The reset page: sets the new password, ends every session of the account, then off to sign in. */
export async function resetPasswordAction(input: { token: string; password: string }): Promise<PasswordResetResult> {
  const result = await completePasswordReset({ token: String(input?.token ?? ""), password: String(input?.password ?? "") });
  if (result.ok) redirect("/sign-in?reset=1");
  return result;
}

/** The emailed confirmation link's button: confirms the address the link was sent to. */
export async function confirmEmailAction(token: string): Promise<VerificationResult> {
  return confirmEmailAddress(String(token ?? ""));
}
