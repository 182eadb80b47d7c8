"use server";

import { requireDeveloper, resendVerification, type VerificationResult } from "@/lib/dashboard";

/** The unverified banner's "Send the link again", for the signed-in developer's own account. */
export async function resendVerificationAction(): Promise<VerificationResult> {
  const developer = await requireDeveloper();
  return resendVerification(developer.id);
}
