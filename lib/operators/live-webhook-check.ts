import { checkWebhookDestination } from "@/lib/webhooks";

/**
 * An application's webhook URL judged by the live rules (`checkWebhookDestination(url, "live")`, the check every
 * save and delivery makes: https, no credentials, a public host, its name resolved now). No URL is no refusal: live
 * events are stored and read through the API, and simply not posted anywhere.
 */
export type LiveWebhookCheck = { url: null; verdict: "none" } | { url: string; verdict: "accepted" } | { url: string; verdict: "refused"; reason: string };

export async function checkLiveWebhook(url: string | null): Promise<LiveWebhookCheck> {
  if (!url) return { url: null, verdict: "none" };
  const check = await checkWebhookDestination(url, "live");
  return check.ok ? { url, verdict: "accepted" } : { url, verdict: "refused", reason: check.reason };
}

/** The check in the operator's words, as the production-requests view shows it. */
export function describeLiveWebhook(check: LiveWebhookCheck): string {
  if (check.verdict === "none") return "no webhook URL: live events will not be delivered";
  if (check.verdict === "accepted") return `${check.url} — accepted for live`;
  return `${check.url} — refused: ${check.reason}`;
}

/** Why approval is refused for this URL, or null when it may go ahead. */
export function liveWebhookRefusal(check: LiveWebhookCheck): string | null {
  if (check.verdict !== "refused") return null;
  return `The application's webhook URL ${check.url} is refused by the live rules (${check.reason}), so every live event would fail. Refuse the request and ask the developer to set a public https URL, or wait until they have.`;
}
