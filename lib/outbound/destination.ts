import dns from "node:dns";
import type { LookupFunction } from "node:net";
import os from "node:os";
import ipaddr from "ipaddr.js";
import { privateWebhooksAllowed } from "@/lib/config";
import { processState } from "@/lib/process-state";

export type WebhookEnvironment = "sandbox" | "live";

/** What a refused destination is told, whatever the address was: it names no address, so it maps nothing. */
export const NOT_PUBLIC = "the host is not a public address";

// What the opt-in (CHARTKEY_ALLOW_PRIVATE_WEBHOOKS) adds for the sandbox: a developer's receiver on this machine or
// their network. Link-local (cloud metadata at 169.254.169.254), CGNAT, reserved, multicast, NAT64, 6to4, Teredo and
// the rest stay refused even then.
const PRIVATE_RANGES = new Set(["loopback", "private", "uniqueLocal"]);

/** This machine's interface addresses (refreshed every 10 s): its public ones reach its own services too. */
function isOwnAddress(address: string): boolean {
  const own = processState("outbound.own-addresses", () => ({ at: 0, addresses: new Set<string>() }));
  if (Date.now() - own.at > 10_000) {
    const addresses = new Set<string>();
    for (const entries of Object.values(os.networkInterfaces())) {
      for (const entry of entries ?? []) if (ipaddr.isValid(entry.address)) addresses.add(ipaddr.process(entry.address).toString());
    }
    Object.assign(own, { at: Date.now(), addresses });
  }
  return own.addresses.has(address);
}

/**
 * Whether a webhook may connect to `address`. By default only public unicast addresses (ipaddr.js's `unicast`
 * range: no loopback, private, link-local, CGNAT, reserved, multicast, NAT64, 6to4, Teredo, ...), IPv4-mapped and
 * IPv4-compatible IPv6 judged as the IPv4 address they carry, and never an address of this machine. With the
 * deployment's opt-in, sandbox webhooks may also reach loopback, private and unique-local addresses and this
 * machine; live webhooks never may.
 */
export function addressAllowed(address: string, environment: WebhookEnvironment, allowPrivate = privateWebhooksAllowed()): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.process(address); // unwraps IPv4-mapped IPv6 (::ffff:127.0.0.1)
  // ::a.b.c.d (IPv4-compatible, deprecated) is "unicast" to ipaddr.js; judge the IPv4 address it carries.
  if (parsed.kind() === "ipv6" && parsed.range() === "unicast" && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) {
    parsed = ipaddr.fromByteArray(parsed.toByteArray().slice(12));
  }
  const range = parsed.range();
  const relaxed = allowPrivate && environment === "sandbox";
  if (relaxed && PRIVATE_RANGES.has(range)) return true;
  if (range !== "unicast") return false;
  return relaxed || !isOwnAddress(parsed.toString());
}

/**
 * The host as a resolver sees it. The URL parser already lowercases, maps IDNA (fullwidth letters, punycode) and
 * turns every numeric IPv4 spelling (127.1, 2130706433, 0x7f000001, 017700000001) into dotted form; what is left
 * is the brackets of an IPv6 literal and trailing dots (`localhost.` is `localhost`).
 */
function normalizedHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").replace(/\.+$/, "");
}

/** Names that mean this machine whatever DNS says (RFC 6761). */
function isLocalhostName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Why `validateWebhookUrl` refuses a URL by its form (the delivery log shows them, and how to fix each). */
export const URL_REFUSALS = {
  malformed: "not an absolute URL",
  liveScheme: "live webhooks must use https",
  scheme: "webhooks must use http or https",
  credentials: "credentials in the URL are not allowed",
  noHost: "the URL has no host",
  notPublic: NOT_PUBLIC,
} as const;

/**
 * The checks that need no DNS: an absolute http(s) URL without credentials, `https:` for live, and a host that is
 * neither a refused IP literal nor a localhost name. Used when a URL is saved and again before every attempt; the
 * resolved address is checked at connect time by `guardedLookup`.
 */
export function validateWebhookUrl(raw: string, environment: WebhookEnvironment, allowPrivate = privateWebhooksAllowed()): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: URL_REFUSALS.malformed };
  }
  if (url.protocol !== "https:" && !(environment === "sandbox" && url.protocol === "http:")) {
    return { ok: false, reason: environment === "live" ? URL_REFUSALS.liveScheme : URL_REFUSALS.scheme };
  }
  if (url.username || url.password) return { ok: false, reason: URL_REFUSALS.credentials };
  const host = normalizedHost(url);
  if (host === "") return { ok: false, reason: URL_REFUSALS.noHost };
  const relaxed = allowPrivate && environment === "sandbox";
  if (ipaddr.isValid(host) ? !addressAllowed(host, environment, allowPrivate) : isLocalhostName(host) && !relaxed) return { ok: false, reason: NOT_PUBLIC };
  return { ok: true, url };
}

const SAVE_LOOKUP_MS = 3000;

/**
 * The check made when a URL is saved: `validateWebhookUrl`, then the name resolved now, refused if any address is
 * not allowed. A name that does not resolve (yet) is accepted: the connect-time check is the one that guards, this
 * one tells the developer at once.
 */
export async function checkWebhookDestination(raw: string, environment: WebhookEnvironment): Promise<UrlCheck> {
  const allowPrivate = privateWebhooksAllowed();
  const checked = validateWebhookUrl(raw, environment, allowPrivate);
  if (!checked.ok) return checked;
  const host = normalizedHost(checked.url);
  if (ipaddr.isValid(host)) return checked;
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([
    dns.promises.lookup(host, { all: true }).catch(() => []),
    new Promise<dns.LookupAddress[]>((resolve) => (timer = setTimeout(() => resolve([]), SAVE_LOOKUP_MS))),
  ]).finally(() => clearTimeout(timer));
  if (addresses.some((entry) => !addressAllowed(entry.address, environment, allowPrivate))) return { ok: false, reason: NOT_PUBLIC };
  return checked;
}

/** The error a refused connection fails with (`code` EADDRREFUSED); its message names no address. */
export function isRefusedDestination(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "EADDRREFUSED";
}

/**
 * A `lookup` for the socket: resolves the name and refuses the connection unless every address is allowed. It
 * runs when the connection is made, so a name that resolved to a public address when the URL was saved and to a
 * private one now (DNS rebinding) is refused, and the socket connects only to an address that was checked.
 */
export function guardedLookup(environment: WebhookEnvironment, allowPrivate = privateWebhooksAllowed()): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", undefined);
      if (addresses.length === 0 || addresses.some((entry) => !addressAllowed(entry.address, environment, allowPrivate))) {
        return callback(Object.assign(new Error(`refused: ${NOT_PUBLIC}`), { code: "EADDRREFUSED" }), "", undefined);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
