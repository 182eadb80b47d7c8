import { Webhook } from "standardwebhooks";
import { decryptSecret } from "@/lib/auth";
import { processState } from "@/lib/process-state";

/** An application's sealed signing secrets: the current one and, for 24 hours after a rotation, the one before. */
export type SealedSigningSecrets = { current: string; previous: string | null; previousExpiresAt: Date | null };

/**
 * The `webhook-signature` header for one attempt made at `at`: the current secret's `v1,...` signature and, while
 * the previous secret has not expired, the previous one's too, space-separated as Standard Webhooks allows, so a
 * receiver holding either secret verifies the delivery during the rotation window.
 */
export function webhookSignature(secrets: SealedSigningSecrets, messageId: string, at: Date, body: string): string {
  const signatures = [signer(secrets.current).sign(messageId, at, body)];
  if (secrets.previous && secrets.previousExpiresAt && secrets.previousExpiresAt > at) {
    signatures.push(signer(secrets.previous).sign(messageId, at, body));
  }
  return signatures.join(" ");
}

// Signers by sealed secret: unsealing and key decoding once per secret, not per delivery.
const signers = processState("webhooks.signers", () => new Map<string, Webhook>());
function signer(sealed: string): Webhook {
  let found = signers.get(sealed);
  if (!found) {
    if (signers.size >= 1000) signers.clear();
    found = new Webhook(decryptSecret(sealed));
    signers.set(sealed, found);
  }
  return found;
}
