"use server";

import { redirect } from "next/navigation";
import { cancelFromFlow, chooseProviders, completeSession, flowState, returnUrl } from "@/lib/connect";
import { ApiError } from "@/lib/http";

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

export async function consentAction(token: string, formData: FormData): Promise<void> {
  const { session } = await flowState(token);
  try {
    await completeSession(session.id, formData.getAll("category").map(String));
  } catch (error) {
    if (error instanceof ApiError && error.code === "invalid_categories") redirect(`/connect/${token}/review?error=categories`);
    throw error;
  }
  redirect(`/connect/${token}/done`);
}

export async function cancelAction(token: string): Promise<void> {
  const { session } = await flowState(token);
  await cancelFromFlow(session.id);
  const back = returnUrl(session.redirectUrl, session.id, "cancelled");
  redirect(back ?? `/connect/${token}/done`);
}
