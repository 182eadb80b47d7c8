import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { db } from "@/lib/db";
import { auth } from "./auth";
import { safeReturnPath, SIGN_IN_PATH } from "@/lib/session";

export type SignedInDeveloper = { id: string; email: string; name: string };

/** The signed-in developer of this request, read once per render; null when signed out or the account is gone. */
export const currentDeveloper = cache(async (): Promise<SignedInDeveloper | null> => {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  return db().developer.findUnique({ where: { id }, select: { id: true, email: true, name: true } });
});

/**
 * Signed out mid-work (the session expired, or ended in another tab): off to sign in, then back to the page the
 * developer was on. A server action learns that page from its request's Referer (the page that called it); the
 * client router follows an action's redirect, so the person sees the sign-in page instead of a failure.
 */
export async function signInAgain(): Promise<never> {
  let back: string | null = null;
  const referer = (await headers()).get("referer");
  if (referer && URL.canParse(referer)) {
    const page = new URL(referer);
    back = safeReturnPath(page.pathname + page.search);
  }
  redirect(`${SIGN_IN_PATH}?${new URLSearchParams({ ...(back ? { next: back } : {}), expired: "1" })}`);
}

/** For pages and server actions that need a developer: signed-out visitors go to sign in and come back. */
export async function requireDeveloper(): Promise<SignedInDeveloper> {
  return (await currentDeveloper()) ?? signInAgain();
}
