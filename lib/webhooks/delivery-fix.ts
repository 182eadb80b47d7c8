import { URL_REFUSALS } from "@/lib/outbound";

const THEN = "on the Webhooks page, then resend";

// Each refusal of the webhook URL (lib/outbound validateWebhookUrl, and the connect-time address check for a public
// host), as the attempt log stores it, and what the developer does about it.
const FIXES: ReadonlyMap<string, string> = new Map([
  [URL_REFUSALS.liveScheme, `Set an https webhook URL ${THEN}.`],
  [URL_REFUSALS.scheme, `Set an http or https webhook URL ${THEN}.`],
  [URL_REFUSALS.malformed, `Set a complete webhook URL, such as https://example.com/webhooks, ${THEN}.`],
  [URL_REFUSALS.noHost, `Set a complete webhook URL, such as https://example.com/webhooks, ${THEN}.`],
  [URL_REFUSALS.credentials, `Set the webhook URL without a user name or password (verify deliveries by their signature instead) ${THEN}.`],
  [URL_REFUSALS.notPublic, `Set a webhook URL on a public host (a tunnel can forward it to a receiver on your machine) ${THEN}.`],
]);

/**
 * How to fix a delivery whose URL was refused (`refused: <reason>` in its attempt log), or null for any other
 * error: an endpoint that answered badly or not at all is the receiver's to fix, and a re-send is enough.
 */
export function deliveryFix(error: string | null): string | null {
  if (!error?.startsWith("refused: ")) return null;
  return FIXES.get(error.slice("refused: ".length)) ?? null;
}
