"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { givePasskeyFactor, giveSecondFactor, passkeyAuthenticationOptions } from "@/lib/account-security";
import { currentSignIn, requestRelyingParty, signIn, signInAgain, ThrottledSignIn } from "@/lib/dashboard";
import { headersClientAddress } from "@/lib/http";
import { safeReturnPath } from "@/lib/session";

export type SecondFactorFormResult = { error: string } | undefined;

/**
 * The second step of a sign-in, and the step-up before a sensitive action: an authenticator app's code or a
 * recovery code for the request's own session. Right: on to `next`; wrong: the form says so.
 */
export async function giveSecondFactorAction(method: unknown, code: unknown, next?: string): Promise<SecondFactorFormResult> {
  const signedIn = await currentSignIn();
  if (!signedIn) return signInAgain();
  if ((method !== "totp" && method !== "recovery_code") || typeof code !== "string" || code.length > 64) return { error: "Enter the code." };
  const answer = await giveSecondFactor({
    developerId: signedIn.developer.id,
    sessionId: signedIn.session.id,
    method,
    code,
    address: headersClientAddress(await headers()),
  });
  if (!answer.ok) return { error: answer.error };
  redirect(safeReturnPath(next));
}

/**
 * A passkey challenge: for the second factor or a step-up, among the signed-in account's passkeys; for a
 * password-less sign-in (`sign_in`), any passkey of this site.
 */
export async function passkeyOptionsAction(mode: unknown): Promise<{ challengeId: string; options: unknown } | { error: string }> {
  if (mode === "sign_in") return passkeyAuthenticationOptions(null, await requestRelyingParty());
  const signedIn = await currentSignIn();
  if (!signedIn) return signInAgain();
  return passkeyAuthenticationOptions(signedIn.developer.id, await requestRelyingParty());
}

/** The second factor (or a step-up) given with one of the account's passkeys; on to `next`. */
export async function passkeyFactorAction(challengeId: unknown, response: unknown, next?: string): Promise<SecondFactorFormResult> {
  const signedIn = await currentSignIn();
  if (!signedIn) return signInAgain();
  const answer = await givePasskeyFactor({
    developerId: signedIn.developer.id,
    sessionId: signedIn.session.id,
    challengeId,
    response,
    address: headersClientAddress(await headers()),
    rp: await requestRelyingParty(),
  });
  if (!answer.ok) return { error: answer.error };
  redirect(safeReturnPath(next));
}

/** Password-less sign-in with a passkey (next-auth's `passkey` provider verifies it). */
export async function passkeySignInAction(challengeId: unknown, response: unknown, next?: string): Promise<SecondFactorFormResult> {
  try {
    await signIn("passkey", { challengeId: typeof challengeId === "string" ? challengeId : "", response: JSON.stringify(response ?? null), redirectTo: safeReturnPath(next) });
  } catch (error) {
    if (error instanceof ThrottledSignIn) return { error: error.refusal };
    if (error instanceof AuthError) return { error: "That passkey did not sign you in. Try again, or sign in with your password." };
    throw error;
  }
}
