/**
 * Whether sandbox webhooks may go to this machine and private networks (loopback, RFC 1918, unique-local, and this
 * host's own interface addresses): `CHARTKEY_ALLOW_PRIVATE_WEBHOOKS=on`, for a developer's local receiver. Off by
 * default on every deployment (any other value is off too: a typo fails closed), since a URL saved by any sign-up
 * would otherwise reach services on the platform's own host and network. Read on every check, so a test turns it
 * on for itself; live webhooks never get it.
 */
export function privateWebhooksAllowed(): boolean {
  return ["on", "1", "true"].includes((process.env.CHARTKEY_ALLOW_PRIVATE_WEBHOOKS ?? "").trim().toLowerCase());
}
