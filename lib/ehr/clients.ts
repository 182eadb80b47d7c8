import { createHmac, timingSafeEqual } from "node:crypto";
import { acceptedKeys, derivedKey, platformOrigin } from "@/lib/config";

/**
 * The clients registered with every synthetic health system. The platform is the only real client, so the
 * registration is code rather than rows: the same for every provider, except the confidential client's secret,
 * which is derived per provider from CHARTKEY_SECRET. The platform's `Provider` rows hold a copy of this
 * registration (client id, encrypted secret), exactly as they would for a live health system that issued them.
 */
export const SANDBOX_CLIENT_ID = "chartkey-sandbox";
/** A public client (no secret, PKCE only), so the public-client path a browser app would take is served too. */
export const SANDBOX_PUBLIC_CLIENT_ID = "chartkey-sandbox-public";

export type EhrClient = { id: string; name: string; confidential: boolean };

const CLIENTS: readonly EhrClient[] = [
  { id: SANDBOX_CLIENT_ID, name: "Chartkey (sandbox)", confidential: true },
  { id: SANDBOX_PUBLIC_CLIENT_ID, name: "Chartkey sandbox public client", confidential: false },
];

export function findEhrClient(clientId: string): EhrClient | undefined {
  return CLIENTS.find((client) => client.id === clientId);
}

/** The confidential sandbox client's secret at one provider: stable for the deployment, different per provider. */
export function sandboxClientSecret(providerId: string, key = derivedKey("ehr-client-secret")): string {
  return createHmac("sha256", key).update(providerId).digest("base64url");
}

/** The secret under the current CHARTKEY_SECRET, or the previous one's while a rotation is under way. */
export function isClientSecretValid(providerId: string, presented: string): boolean {
  const given = Buffer.from(presented);
  return acceptedKeys("ehr-client-secret").some((key) => {
    const expected = Buffer.from(sandboxClientSecret(providerId, key));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Redirect URIs registered for the sandbox clients: any URL on the platform's own origin (the platform is the
 * client), and loopback http URLs on any port, as RFC 8252 §7.3 has servers allow (local development and tests
 * run the platform on whatever port is free, and a browser may reach it as 127.0.0.1 or localhost). Anything else
 * is unregistered, and the authorization endpoint never redirects to it.
 */
export function isRegisteredRedirectUri(redirectUri: string): boolean {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return false;
  }
  if (url.hash !== "" || url.username !== "" || url.password !== "") return false;
  if (url.origin === platformOrigin()) return true;
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}
