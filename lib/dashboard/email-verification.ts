import { headers } from "next/headers";
import { AccountError, sendVerificationEmail, TooManyAttemptsError, verifyEmail } from "@/lib/accounts";
import { headersClientAddress } from "@/lib/http";
import { log } from "@/lib/log";
import { dashboardOrigin } from "./request-origin";

export type VerificationResult = { ok: true; message: string } | { ok: false; error: string };

/** The emailed confirmation link, followed: the address is confirmed (audited with the caller's address). */
export async function confirmEmailAddress(token: string): Promise<VerificationResult> {
  const address = headersClientAddress(await headers());
  try {
    const { email } = await verifyEmail({ token, address });
    return { ok: true, message: `${email} is confirmed.` };
  } catch (error) {
    if (error instanceof AccountError) return { ok: false, error: error.message };
    throw error;
  }
}

/** The banner's "send the link again", for the signed-in developer's own account. */
export async function resendVerification(developerId: string): Promise<VerificationResult> {
  try {
    const outcome = await sendVerificationEmail(developerId, await dashboardOrigin());
    return { ok: true, message: outcome === "already" ? "Your email address is already confirmed." : "We sent a new confirmation link. It works for 48 hours." };
  } catch (error) {
    if (error instanceof TooManyAttemptsError) return { ok: false, error: error.message };
    log.error({ event: "email.verification_failed", err: (error as Error).name, message: (error as Error).message }, "verification email not sent");
    return { ok: false, error: "The email could not be sent. Try again in a few minutes." };
  }
}
