import { effectiveStatus } from "@/lib/consent";
import { db } from "@/lib/db";
import type { Category } from "@/lib/records";
import { grantBroaderThan } from "@/lib/sources";
import { providersAskingBroadly } from "./broader-sign-in";
import { linkToken } from "./link-tokens";
import { countTotal } from "./present-session";
import { availableProviders } from "./providers";
import { sessionByLink } from "./session-by-link";

/**
 * Everything a hosted-flow page shows about its session: who asks, for what, which health systems the patient chose
 * and which of them they have signed in at. Throws the link's 404/410 for pages to hand to the entry route.
 */
export async function flowState(token: string) {
  const session = await sessionByLink(token);
  const providers = await availableProviders(session.environment);
  const sources = await db().source.findMany({
    where: { connectSessionId: session.id },
    select: { id: true, providerId: true, connected: true, tokenScope: true, syncStatus: true, lastError: true, imports: { where: { status: "completed" }, orderBy: { startedAt: "desc" }, take: 1, select: { recordCounts: true } } },
  });
  const chosen = session.providerIds.flatMap((id) => providers.filter((provider) => provider.id === id));
  return {
    session,
    applicationName: session.application.name,
    /** Until when the share would last if the patient consented now. */
    shareUntil: new Date(Date.now() + session.consentDays * 24 * 60 * 60 * 1000),
    categories: session.categories as Category[],
    providers,
    /** The chosen health systems whose sign-in will ask for more than these categories (asked of each, so only the sign-in page calls it). */
    providersAskingBroadly: () => providersAskingBroadly(chosen.map((provider) => provider.id), session.categories as Category[]),
    chosen: chosen.map((provider) => {
      const source = sources.find((candidate) => candidate.providerId === provider.id);
      const records = countTotal(source?.imports[0]?.recordCounts);
      // A health system that could not ask for only these categories (no SMART v2 granular scopes) granted more at
      // sign-in than the application asked: the review page says so, and that the application receives only these.
      const broaderRequest = source?.connected === true && source.tokenScope !== null && grantBroaderThan(source.tokenScope, session.categories as Category[]);
      return { ...provider, signedIn: source?.connected ?? false, broaderRequest, syncStatus: source?.syncStatus ?? null, records, error: source?.lastError ?? null };
    }),
  };
}
export type FlowState = Awaited<ReturnType<typeof flowState>>;

/** The patient's private receipt page: what they share and a way to stop, for the done page and the application. */
export function receiptUrl(origin: string, receiptId: string): string {
  return `${origin}/consent/${linkToken("receipt", receiptId)}`;
}

/**
 * Where the patient returns to the application, with the session id and how it ended; a completed session also
 * carries its receipt's id and private page, so the application can offer "Manage sharing" once this tab is gone.
 */
export function returnUrl(redirectUrl: string | null, sessionId: string, status: "completed" | "cancelled", receipt?: { id: string; url: string }): string | null {
  if (!redirectUrl) return null;
  const url = new URL(redirectUrl);
  url.searchParams.set("session_id", sessionId);
  url.searchParams.set("status", status);
  if (receipt) {
    url.searchParams.set("receipt_id", receipt.id);
    url.searchParams.set("receipt_url", receipt.url);
  }
  return url.toString();
}

/** The receipt a completed session created, as of now: the done page says what is true today, not at consent. */
export async function receiptForSession(sessionId: string, now = new Date()) {
  const receipt = await db().consentReceipt.findFirst({ where: { connectSessionId: sessionId }, orderBy: { grantedAt: "desc" } });
  return receipt ? { id: receipt.id, status: effectiveStatus(receipt, now), revokedAt: receipt.revokedAt, expiresAt: receipt.expiresAt } : null;
}
