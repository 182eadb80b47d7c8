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

/**
 * Hosts of health systems on the deployment's own network that provider requests may reach over http and at
 * private or loopback addresses: `CHARTKEY_PROVIDER_PRIVATE_HOSTS`, comma-separated host names or IP literals
 * (lowercased; exactly as in the URL). Empty by default: providers must then be https at public addresses.
 * Link-local (cloud metadata) and the other special ranges stay refused for every host. Read on every request.
 */
export function providerPrivateHosts(): string[] {
  return (process.env.CHARTKEY_PROVIDER_PRIVATE_HOSTS ?? "")
    .split(",")
    .map((host) => host.trim().toLowerCase().replace(/^\[|\]$/g, "").replace(/\.+$/, ""))
    .filter((host) => host.length > 0);
}
