import { db, withTransaction } from "@/lib/db";
import { ApiError, unstorableCharacter } from "@/lib/http";
import { newId } from "@/lib/ids";
import { beginAuthorization, completeAuthorization, sealSourceTokens, SourceError, type SmartTokens } from "@/lib/sources";
import { sessionSubject } from "./complete-session";
import { linkToken } from "./link-tokens";
import { availableProviders } from "./providers";
import { sessionByLink } from "./session-by-link";

/** The path the health systems send the patient back to, on the origin their browser is on. */
export const CALLBACK_PATH = "/connect/callback";

/**
 * Sends the patient to a health system's SMART sign-in for one of the systems they chose. Returns the provider's
 * authorization URL and the `state` the browser must keep (the callback is honoured only with it).
 */
export async function beginSignIn(token: string, providerId: string, origin: string, locale?: string) {
  const session = await sessionByLink(token);
  if (session.status !== "pending") throw new ApiError("session_completed", "This session has already ended.");
  if (!session.providerIds.includes(providerId)) throw new ApiError("invalid_request", "Choose this health system first.");
  // Chosen while it was offered, since disabled by an operator: no new sign-in starts there.
  if (!(await availableProviders(session.environment)).some((provider) => provider.id === providerId)) {
    throw new ApiError("invalid_request", "This health system is no longer offered; choose another.");
  }
  return beginAuthorization({ connectSessionId: session.id, providerId, redirectUri: `${origin}${CALLBACK_PATH}`, requesterName: session.application.name, uiLocales: locale });
}

export type SignInOutcome = { token: string; error: "access_denied" | "failed" | null };

/**
 * The health system's redirect back: with the state this browser started, exchange the code and attach the source
 * (its tokens sealed) to the session's subject. Returns where the patient goes next, or null when the callback
 * belongs to no sign-in this deployment started.
 */
export async function finishSignIn(callbackUrl: string, browserHasState: (state: string) => boolean): Promise<SignInOutcome | null> {
  const state = new URL(callbackUrl).searchParams.get("state") ?? "";
  // A state holding text PostgreSQL cannot store (`?state=%00`) was never issued: answered as unknown, not queried.
  const authorization = state && !unstorableCharacter(state) ? await db().sourceAuthorization.findUnique({ where: { state }, select: { connectSessionId: true } }) : null;
  if (!authorization) return null;
  const token = linkToken("session", authorization.connectSessionId);
  try {
    const completed = await completeAuthorization({ state: browserHasState(state) ? state : "", callbackUrl });
    await attachSource(completed.connectSessionId, completed.providerId, completed.tokens);
    return { token, error: null };
  } catch (error) {
    if (error instanceof SourceError) return { token, error: error.code === "authorization_denied" ? "access_denied" : "failed" };
    throw error;
  }
}

/** The patient's connection to one health system, under the session's subject, ready to import. */
export async function attachSource(connectSessionId: string, providerId: string, tokens: SmartTokens): Promise<string> {
  return withTransaction("ReadCommitted", async (tx) => {
    const subjectId = await sessionSubject(connectSessionId, tx);
    const subject = await tx.subject.findUniqueOrThrow({ where: { id: subjectId }, select: { patientId: true } });
    const sealed = sealSourceTokens(tokens);
    const source = await tx.source.upsert({
      where: { subjectId_providerId: { subjectId, providerId } },
      create: { id: newId("src_"), patientId: subject.patientId, subjectId, providerId, connectSessionId, connected: true, ...sealed },
      update: { connectSessionId, connected: true, syncStatus: "pending", lastError: null, ...sealed },
    });
    return source.id;
  });
}
