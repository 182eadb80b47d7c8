import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "next/dist/compiled/compression";
import { setApiDispatcher, type ApiDispatcher, type HttpMethod } from "@/lib/api";
import { headerText } from "./header-text";
import { API_FOLDERS } from "./api-families";
import { loadApiRoutes, matchRoute, type ApiRouteTable } from "./api-routes";

/** Where Next.js believes it runs (prepareNextApp's options): it builds every route's request URL from them. */
export type ServedAt = { hostname: string; port: number };

/** Serves one API request, or answers false when no route file matches its path (Next.js then serves it). */
export type DirectApiHandler = (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<boolean>;

// Next.js compresses every answer it sends with this middleware (its `compress` option, on by default); the API
// answers served here are compressed the same way, for the same clients.
const compress = compression();

/**
 * Calls API route files' handlers straight from the platform server, as Next.js would call them but without its
 * router and rendering: the same `serve()` exports, with a Request built as Next builds it (the URL on the
 * configured host and port, https when X-Forwarded-Proto says so; the node request's headers and body), the path
 * parameters decoded as Next decodes them, HEAD served by GET and answered without a body, and the Response written
 * back with Next's compression. Requests reach it already rewritten by the platform handler (canonical path,
 * trusted internal headers, response header defaults), exactly as they reach Next.
 */
export function directApiHandler(routes: ApiRouteTable, servedAt: ServedAt): DirectApiHandler {
  return async (req, res, pathname) => {
    const match = matchRoute(routes, pathname);
    if (!match) return false;
    const method = req.method ?? "GET";
    const handler = match.exports[method === "HEAD" ? "GET" : (method as keyof typeof match.exports)];
    if (!handler) return false;
    const response = await handler(toRequest(req, method, servedAt), { params: Promise.resolve(match.params) });
    await writeResponse(req, res, response);
    return true;
  };
}

/**
 * Serves API requests built in process (MCP tools calling their REST twins) from the same route files, and names
 * the declared operation serving a path. An unmatched path cannot occur: each family has a catch-all route file.
 */
export function routeDispatcher(routes: ApiRouteTable): ApiDispatcher {
  return {
    dispatch: async (request) => {
      const match = matchRoute(routes, new URL(request.url).pathname);
      const handler = match?.exports[request.method as keyof typeof match.exports];
      if (!match || !handler) throw new Error(`no route file serves ${request.method} ${new URL(request.url).pathname}`);
      return handler(request, { params: Promise.resolve(match.params) });
    },
    operationAt: (method: HttpMethod, pathname: string) => {
      const handler = matchRoute(routes, pathname)?.exports[method] as { operation?: ReturnType<ApiDispatcher["operationAt"]> } | undefined;
      return handler?.operation;
    },
  };
}

/**
 * The API families' route files under `appDir` (the project's app/ folder), registered as the process's in-process
 * dispatcher (MCP tools), and their direct handler for the platform server.
 */
export async function prepareApiRoutes(options: ServedAt & { appDir: string }): Promise<DirectApiHandler> {
  const routes = await loadApiRoutes(options.appDir, API_FOLDERS);
  setApiDispatcher(routeDispatcher(routes));
  return directApiHandler(routes, options);
}

function toRequest(req: IncomingMessage, method: string, servedAt: ServedAt): Request {
  const protocol = headerText(req.headers["x-forwarded-proto"])?.includes("https") ? "https" : "http";
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(`${protocol}://${servedAt.hostname}:${servedAt.port}${req.url ?? "/"}`, {
    method,
    headers,
    // The node request itself, read only if the handler reads the body, as Next.js passes it: a body nobody reads
    // is discarded by Node once the answer is written, and the connection stays usable.
    body: hasBody ? (req as unknown as BodyInit) : undefined,
    duplex: "half",
  } as RequestInit);
}

async function writeResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (body) res.setHeader("Content-Length", body.length);
  compress(req, res, () => {});
  res.end(body);
}
