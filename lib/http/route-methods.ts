export type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: Request, context: NextRouteContext) => Promise<Response>;
export type MethodName = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Completes a route file's handlers so that every method it does not serve answers with `fallback(allowed)`
 * (each API family's own 404 envelope naming the allowed methods) instead of Next.js's bare 405.
 */
export function completeMethods(
  handlers: Partial<Record<MethodName, RouteHandler>>,
  fallback: (allowed: string[]) => RouteHandler,
): Record<MethodName, RouteHandler> {
  const otherwise = fallback(Object.keys(handlers));
  return {
    GET: handlers.GET ?? otherwise,
    POST: handlers.POST ?? otherwise,
    PUT: handlers.PUT ?? otherwise,
    PATCH: handlers.PATCH ?? otherwise,
    DELETE: handlers.DELETE ?? otherwise,
  };
}
