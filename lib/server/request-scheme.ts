/**
 * Whether the client reached the platform over https: the socket itself is TLS, or trusted proxies say so.
 * X-Forwarded-Proto counts only when the deployment trusts proxy hops (any client can write the header), and then
 * the entry the outermost trusted proxy wrote: `trustedHops` from the right, as for X-Forwarded-For; a proxy that
 * overwrites instead of appending leaves fewer entries, all of them its own.
 */
export function requestIsHttps(socketIsTls: boolean, forwardedProto: string | undefined, trustedHops: number): boolean {
  if (socketIsTls) return true;
  if (trustedHops === 0 || !forwardedProto) return false;
  const entries = forwardedProto.split(",").map((entry) => entry.trim().toLowerCase());
  return entries[Math.max(0, entries.length - trustedHops)] === "https";
}
