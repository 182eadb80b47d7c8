import ipaddr from "ipaddr.js";
import type { HeaderReader, RequestHead } from "./request-head";
import { INTERNAL_HEADER } from "./headers";

/** Requests that did not come through the platform's server (tests calling handlers directly) share one bucket. */
export const UNKNOWN_ADDRESS = "unknown";

/**
 * The client's address for a connection: the socket's peer, unless the deployment says `trustedHops` proxies sit in
 * front of the app, in which case it is the entry that many hops from the right of X-Forwarded-For (each proxy
 * appends the address it received from; entries further left are whatever the client wrote, so never trusted).
 */
export function connectionClientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trustedHops: number): string {
  const peer = normalizeAddress(socketAddress) ?? UNKNOWN_ADDRESS;
  if (trustedHops === 0 || !forwardedFor) return peer;
  const hops = forwardedFor.split(",").map((entry) => entry.trim()).filter(Boolean);
  // With N trusted proxies, the last N-1 entries are proxies' own peers and the N-th from the right is the client.
  return normalizeAddress(hops[hops.length - trustedHops]) ?? peer;
}

/** The address the platform's server recorded for this request. */
export function requestClientAddress(request: RequestHead): string {
  return headersClientAddress(request.headers);
}

/** The same, from a request's headers (a server action's `headers()`). */
export function headersClientAddress(headers: HeaderReader): string {
  return headers.get(INTERNAL_HEADER.clientAddress) || UNKNOWN_ADDRESS;
}

/**
 * The bucket per-address limits count in: an IPv4 address, or the /64 prefix of an IPv6 one (one subscriber's
 * network: its holder can use any of its 2^64 addresses, so counting them one by one would bound nothing).
 */
export function addressPrefix(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toString()}/64`;
}

function normalizeAddress(address: string | undefined): string | undefined {
  // Only an IP address is one: junk in a forwarded entry (5,000 characters, with an agent token, answered 500) means
  // the hop is not known, and the peer stands in.
  if (!address || !ipaddr.isValid(address)) return undefined;
  // IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d; one client must map to one bucket.
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}
