"use server";

import { revalidatePath } from "next/cache";
import {
  beginTotpEnrolment,
  confirmTotpEnrolment,
  endDashboardSession,
  endOtherSessions,
  markSecondFactorGiven,
  passkeyRegistrationOptions,
  regenerateRecoveryCodes,
  registerPasskey,
  removePasskey,
  removeTotp,
} from "@/lib/account-security";
import { setEmailLanguage } from "@/lib/accounts";
import { auditedRequest, requestRelyingParty, requireSignIn, requireStepUp, signOut, type ActionResult } from "@/lib/dashboard";

const SECURITY_PATH = "/dashboard/account/security";

/** Ends one of the signed-in account's sessions (its own id is checked: another account's session is "not found"). */
export async function endSessionAction(sessionId: unknown): Promise<ActionResult> {
  const { developer, session } = await requireSignIn();
  if (typeof sessionId !== "string") return { ok: false, error: "That session was not found." };
  const ended = await auditedRequest(() => endDashboardSession(developer.id, sessionId, "ended_by_owner"));
  if (!ended) return { ok: false, error: "That session was not found, or it has already ended." };
  if (sessionId === session.id) await signOut({ redirectTo: "/sign-in" });
  revalidatePath(SECURITY_PATH);
  return { ok: true, message: "The session was signed out." };
}

/** Ends every session of the account, this one included, then signs in again here. */
export async function signOutEverywhereAction(): Promise<ActionResult> {
  const { developer } = await requireSignIn();
  await auditedRequest(() => endOtherSessions(developer.id, null, "signed_out_everywhere"));
  await signOut({ redirectTo: "/sign-in" });
  return { ok: true, message: "Signed out everywhere." };
}

export type CodesResult = { ok: true; recoveryCodes: string[] | null; message: string } | { ok: false; error: string };

/** Starts enrolling an authenticator app: its QR code to scan, the secret to type or the otpauth link to open, until a code confirms it. */
export async function beginTotpAction(): Promise<{ ok: true; secret: string; uri: string; qrCode: string } | { ok: false; error: string }> {
  const { developer } = await requireSignIn();
  const started = await beginTotpEnrolment(developer);
  if (!started) return { ok: false, error: "An authenticator app is already set up. Remove it first to set up another." };
  return { ok: true, ...started };
}

/** Confirms the authenticator app with its first code; the account's first factor answers its recovery codes once. */
export async function confirmTotpAction(code: unknown): Promise<CodesResult> {
  const { developer, session } = await requireSignIn();
  if (typeof code !== "string" || code.length > 16) return { ok: false, error: "Enter the six digits your app shows." };
  const confirmed = await auditedRequest(() => confirmTotpEnrolment(developer.id, session.id, code));
  if (!confirmed.ok) return confirmed;
  revalidatePath(SECURITY_PATH);
  return { ok: true, recoveryCodes: confirmed.recoveryCodes, message: "Your authenticator app is set up." };
}

/** Removes the authenticator app (step-up first); the account's other sessions end. */
export async function removeTotpAction(): Promise<ActionResult> {
  await requireStepUp(SECURITY_PATH);
  const { developer, session } = await requireSignIn();
  const removed = await auditedRequest(() => removeTotp(developer.id, session.id));
  revalidatePath(SECURITY_PATH);
  return removed ? { ok: true, message: "The authenticator app was removed. Your other sessions were signed out." } : { ok: false, error: "No authenticator app is set up." };
}

/** Ten new recovery codes (step-up first); the old ones stop working. */
export async function regenerateRecoveryCodesAction(): Promise<CodesResult> {
  await requireStepUp(SECURITY_PATH);
  const { developer } = await requireSignIn();
  const codes = await auditedRequest(() => regenerateRecoveryCodes(developer.id));
  if (!codes) return { ok: false, error: "Set up a second factor first." };
  revalidatePath(SECURITY_PATH);
  return { ok: true, recoveryCodes: codes, message: "New recovery codes. The old ones no longer work." };
}

/** A challenge for registering a passkey on the signed-in account. */
export async function passkeyRegistrationOptionsAction(): Promise<{ challengeId: string; options: unknown }> {
  const { developer } = await requireSignIn();
  return passkeyRegistrationOptions(developer, await requestRelyingParty());
}

/** Verifies and stores the browser's new passkey; the account's first factor answers its recovery codes once. */
export async function registerPasskeyAction(challengeId: unknown, response: unknown, name: unknown): Promise<CodesResult> {
  const { developer, session } = await requireSignIn();
  const registered = await auditedRequest(async () => registerPasskey({ developerId: developer.id, challengeId, response, name, rp: await requestRelyingParty() }));
  if (!registered.ok) return registered;
  // Registering proves the authenticator is at hand: it counts as the second factor given now.
  await markSecondFactorGiven(session.id);
  revalidatePath(SECURITY_PATH);
  return { ok: true, recoveryCodes: registered.recoveryCodes, message: "Your passkey was added." };
}

/** Removes a passkey (step-up first); the account's other sessions end. */
export async function removePasskeyAction(passkeyId: unknown): Promise<ActionResult> {
  await requireStepUp(SECURITY_PATH);
  const { developer, session } = await requireSignIn();
  const removed = await auditedRequest(() => removePasskey(developer.id, passkeyId, session.id));
  revalidatePath(SECURITY_PATH);
  return removed ? { ok: true, message: "The passkey was removed. Your other sessions were signed out." } : { ok: false, error: "That passkey was not found." };
}

/** The language of the account's emails from now on: English or Spanish (anything else is refused). */
export async function setEmailLanguageAction(locale: unknown): Promise<ActionResult> {
  const { developer } = await requireSignIn();
  const set = await setEmailLanguage(developer.id, { locale });
  if (!set.ok) return set;
  revalidatePath(SECURITY_PATH);
  return { ok: true, message: set.locale === "es" ? "Your emails will be in Spanish." : "Your emails will be in English." };
}
