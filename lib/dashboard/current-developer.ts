import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { hasSecondFactor, liveDashboardSession, type DashboardSessionRow } from "@/lib/account-security";
import { db } from "@/lib/db";
import { auth } from "./auth";
import { safeReturnPath, SIGN_IN_PATH } from "@/lib/session";

export type SignedInDeveloper = { id: string; email: string; name: string };

/** Where an account whose password was accepted gives its second factor. */
export const SECOND_FACTOR_PATH = "/sign-in/verify";

/**
 * The request's next-auth session and the DashboardSession row it names, read once per render: null when signed
 * out, when the session was ended (on the Security page, by a password change...) or the account is gone. The
 * session may still wait for the second factor (`session.secondFactorPending`).
 */
export const currentSignIn = cache(async (): Promise<{ developer: SignedInDeveloper; session: DashboardSessionRow } | null> => {
  const signedIn = await auth();
  const id = signedIn?.user?.id;
  if (!id) return null;
  const session = await liveDashboardSession((signedIn as { sessionId?: string }).sessionId, id);
  if (!session) return null;
  const developer = await db().developer.findUnique({ where: { id }, select: { id: true, email: true, name: true } });
  return developer ? { developer, session } : null;
});

/** The signed-in developer of this request, read once per render; null when signed out, ended, or the factor is missing. */
export const currentDeveloper = cache(async (): Promise<SignedInDeveloper | null> => {
  const signIn = await currentSignIn();
  return signIn && !signIn.session.secondFactorPending ? signIn.developer : null;
});

/** The signed-in developer's open session (for the Security page's "this device" and step-up). */
export async function requireSignIn(): Promise<{ developer: SignedInDeveloper; session: DashboardSessionRow }> {
  const signIn = await currentSignIn();
  if (!signIn || signIn.session.secondFactorPending) return signInAgain();
  return signIn;
}

/**
 * Signed out mid-work (the session expired, or ended in another tab): off to sign in, then back to the page the
 * developer was on. A server action learns that page from its request's Referer (the page that called it); the
 * client router follows an action's redirect, so the person sees the sign-in page instead of a failure.
 */
export async function signInAgain(): Promise<never> {
  const back = await refererPath();
  redirect(`${SIGN_IN_PATH}?${new URLSearchParams({ ...(back ? { next: back } : {}), expired: "1" })}`);
}

/** The path of the page that made this request (a server action's caller), when it is on this site. */
export async function refererPath(): Promise<string | null> {
  const referer = (await headers()).get("referer");
  if (referer && URL.canParse(referer)) {
    const page = new URL(referer);
    return safeReturnPath(page.pathname + page.search);
  }
  return null;
}

/** For pages and server actions that need a developer: signed-out visitors go to sign in and come back. */
export async function requireDeveloper(): Promise<SignedInDeveloper> {
  return (await currentDeveloper()) ?? signInAgain();
}

/**
 * Whether a password sign-in for `email` goes on to the second-factor step (where it is sent after the password is
 * accepted; a wrong password never gets there, so this tells a guesser nothing).
 */
export async function secondFactorExpected(email: string): Promise<boolean> {
  const developer = await db().developer.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
  return developer ? hasSecondFactor(developer.id) : false;
}
