import { db } from "@/lib/db";
import type { Category } from "@/lib/records";
import { CATEGORY_TEXT } from "./category-text";
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
    select: { id: true, providerId: true, connected: true, syncStatus: true, lastError: true, imports: { orderBy: { startedAt: "desc" }, take: 1, select: { recordCounts: true } } },
  });
  const chosen = session.providerIds.flatMap((id) => providers.filter((provider) => provider.id === id));
  return {
    session,
    applicationName: session.application.name,
    /** Until when the share would last if the patient consented now. */
    shareUntil: new Date(Date.now() + session.consentDays * 24 * 60 * 60 * 1000),
    categories: (session.categories as Category[]).map((category) => ({ category, ...CATEGORY_TEXT[category] })),
    providers,
    chosen: chosen.map((provider) => {
      const source = sources.find((candidate) => candidate.providerId === provider.id);
      const records = countTotal(source?.imports[0]?.recordCounts);
      return { ...provider, signedIn: source?.connected ?? false, syncStatus: source?.syncStatus ?? null, records, error: source?.lastError ?? null };
    }),
  };
}
export type FlowState = Awaited<ReturnType<typeof flowState>>;

/** Where the patient returns to the application, with the session id and how it ended. */
export function returnUrl(redirectUrl: string | null, sessionId: string, status: "completed" | "cancelled"): string | null {
  if (!redirectUrl) return null;
  const url = new URL(redirectUrl);
  url.searchParams.set("session_id", sessionId);
  url.searchParams.set("status", status);
  return url.toString();
}

/** The receipt a completed session created, for the done page's private receipt link. */
export async function receiptIdForSession(sessionId: string): Promise<string | null> {
  const receipt = await db().consentReceipt.findFirst({ where: { connectSessionId: sessionId }, orderBy: { grantedAt: "desc" }, select: { id: true } });
  return receipt?.id ?? null;
}
