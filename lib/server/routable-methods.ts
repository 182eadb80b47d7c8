/**
 * The methods Next.js dispatches to route handlers (route files export GET to DELETE; Next answers HEAD and
 * OPTIONS itself). Anything else (TRACE, PROPFIND, any other token) makes Next throw, so it never reaches Next.
 */
export const ROUTABLE_METHODS: readonly string[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

export function isRoutableMethod(method: string): boolean {
  return ROUTABLE_METHODS.includes(method);
}
