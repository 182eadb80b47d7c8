"use server";

import { revalidatePath } from "next/cache";
import { endDashboardSession, endOtherSessions } from "@/lib/account-security";
import { auditedRequest, requireSignIn, signOut, type ActionResult } from "@/lib/dashboard";

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
