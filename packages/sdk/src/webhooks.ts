import { createHmac, timingSafeEqual } from "node:crypto";

export type WebhookEventType = "consent.granted" | "consent.revoked" | "consent.expired" | "records.updated" | "sync.failed" | "subject.deleted" | "webhook.test";

/** A delivery's body. Acknowledge types you do not handle with a 2xx too: new kinds may be added. */
export type WebhookEvent = {
  /** evt_: also the webhook-id header, the same on every retry; deduplicate on it. */
  id: string;
  type: WebhookEventType | (string & {});
  timestamp: string;
  environment: "sandbox" | "live";
  data: Record<string, unknown> & { subject?: string; categories?: string[] };
};

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

export type VerifyOptions = {
  /** How far the webhook-timestamp may be from now; default 300 s (Standard Webhooks). */
  toleranceSeconds?: number;
  /** The clock, for tests. */
  now?: () => number;
};

/**
 * Verifies a delivery as Standard Webhooks specifies and returns its event: the `webhook-signature` must hold a
 * `v1,` HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}` under the whsec_ secret, and the timestamp
 * must be within the tolerance (a replayed old delivery fails). Pass the raw body exactly as received, never a
 * re-serialized object. During a secret rotation pass both secrets; either one verifies. Throws
 * WebhookVerificationError otherwise: answer it with a 400.
 */
export function verifyWebhook(payload: string | Uint8Array, headers: HeaderBag, secret: string | string[], options: VerifyOptions = {}): WebhookEvent {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header");
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("webhook-timestamp is not a number of seconds");
  const nowSeconds = Math.floor((options.now?.() ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) throw new WebhookVerificationError("webhook-timestamp is outside the tolerance");

  const body = typeof payload === "string" ? payload : Buffer.from(payload).toString("utf8");
  const signed = `${id}.${timestamp}.${body}`;
  const candidates = signatures
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => Buffer.from(entry.slice(3), "base64"));
  const verified = (Array.isArray(secret) ? secret : [secret]).some((one) => {
    const expected = createHmac("sha256", secretKey(one)).update(signed).digest();
    return candidates.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  });
  if (!verified) throw new WebhookVerificationError("no signature matches");
  try {
    return JSON.parse(body) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError("the body is not JSON");
  }
}

function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
}

function header(headers: HeaderBag, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? (found[0] ?? null) : (found ?? null);
}
