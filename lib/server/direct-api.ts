import type { IncomingMessage, ServerResponse } from "node:http";
import type { RouteTable } from "@/lib/api";
import { bodyJsonOf, JsonText, writeJsonText } from "@/lib/http";
import { DEMO_ROUTES, PLATFORM_ROUTES } from "@/lib/routes";
import { compressBody } from "./compress-response";
import { familyOf, type ApiFamily } from "./api-families";
import { headerText } from "./header-text";

/** Where Next.js believes it runs (prepareNextApp's options): it builds every route's request URL from them. */
export type ServedAt = { hostname: string; port: number };

const TABLES: Record<ApiFamily, RouteTable> = { api: PLATFORM_ROUTES, demo: DEMO_ROUTES };

/** Serves one API request, or answers false when the path is under no API family (Next.js then serves it). */
export type DirectApiHandler = (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<boolean>;

/**
 * Serves API requests straight from the platform server through the families' dispatch tables, the same tables
 * the families' catch-all route files serve from under Next.js, without its router and rendering: a Request built
 * as Next builds it (the URL on the configured host and port, https when X-Forwarded-Proto says so; the node
 * request's headers and body), HEAD served by GET and answered without a body, and the Response written back
 * compressed as Next compresses. Requests reach it already rewritten by the platform handler (canonical path,
 * trusted internal headers, response header defaults), exactly as they reach Next.
 */
export function directApiHandler(servedAt: ServedAt): DirectApiHandler {
  return async (req, res, pathname) => {
    const family = familyOf(pathname);
    if (!family) return false;
    const response = await TABLES[family].handle(toRequest(req, req.method ?? "GET", servedAt));
    await writeResponse(req, res, response);
    return true;
  };
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
  // A JSON answer is written from the text it was made from (lib/http/json-text.ts), not read back out of the Response.
  const json = response.body ? bodyJsonOf(response) : undefined;
  const body = response.body ? await compressBody(req, res, json ?? Buffer.from(await response.arrayBuffer())) : undefined;
  if (body instanceof JsonText) return writeJsonText(res, body);
  if (body !== undefined) res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}
