"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { beginSignIn, CALLBACK_PATH, cancelFromFlow, chooseProviders, completeSession, flowState, returnUrl, startImports } from "@/lib/connect";
import { ApiError } from "@/lib/http";
import { pageLocale } from "@/components/i18n/page-locale";
import { flowOrigin } from "./flow";
import { SIGN_IN_COOKIE_PREFIX, SIGN_IN_MINUTES } from "./sign-in-cookie";

// Each action re-reads the session from its link, so a stale tab can never act on an ended or expired session.

export async function chooseProvidersAction(token: string, formData: FormData): Promise<void> {
  const { session } = await flowState(token);
  try {
    await chooseProviders(session.id, session.environment, formData.getAll("provider").map(String));
  } catch (error) {
    if (error instanceof ApiError && error.code === "invalid_request") redirect(`/connect/${token}/start?error=choose`);
    throw error;
  }
  redirect(`/connect/${token}/sign-in`);
}

/**
 * Sends the browser to the health system's sign-in. The OAuth `state` goes into a cookie scoped to the callback, so
 * only the browser that started a sign-in can finish it.
 */
export async function signInAction(token: string, providerId: string): Promise<void> {
  const origin = await flowOrigin();
  const begun = await beginSignIn(token, providerId, origin, await pageLocale());
  (await cookies()).set(`${SIGN_IN_COOKIE_PREFIX}${begun.state}`, "1", {
    httpOnly: true,
    sameSite: "lax",
    secure: origin.startsWith("https:"),
    path: CALLBACK_PATH,
    maxAge: SIGN_IN_MINUTES * 60,
  });
  redirect(begun.authorizationUrl);
}

export async function consentAction(token: string, formData: FormData): Promise<void> {
  const { session } = await flowState(token);
  try {
    await completeSession(session.id, formData.getAll("category").map(String));
  } catch (error) {
    if (error instanceof ApiError && error.code === "invalid_categories") redirect(`/connect/${token}/review?error=categories`);
    throw error;
  }
  await startImports(session.id);
  redirect(`/connect/${token}/done`);
}

export async function cancelAction(token: string): Promise<void> {
  const { session } = await flowState(token);
  await cancelFromFlow(session.id);
  const back = returnUrl(session.redirectUrl, session.id, "cancelled");
  redirect(back ?? `/connect/${token}/done`);
}
