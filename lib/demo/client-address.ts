/** Requests with no address headers (direct connections in development) share one bucket. */
const UNKNOWN_ADDRESS = "unknown";

/**
 * The client's network address as the proxy in front of the app reports it: the first hop of X-Forwarded-For,
 * else X-Real-IP. A client can forge these headers only when no proxy overwrites them, which a deployment must
 * ensure anyway for the keyed API's logs.
 */
export function clientAddress(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  if (forwarded) return forwarded;
  return request.headers.get("x-real-ip")?.trim() || UNKNOWN_ADDRESS;
}
