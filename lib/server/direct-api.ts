import type { IncomingMessage, ServerResponse } from "node:http";
import type { RouteTable } from "@/lib/api";
import { DeferredRequest, JsonAnswer, JsonText, writeJsonText, type Answer, type HeaderReader } from "@/lib/http";
import { DEMO_ROUTES, PLATFORM_ROUTES } from "@/lib/routes";
import { compressBody, isCompressible } from "./compress-response";
import { familyOf, type ApiFamily } from "./api-families";
import { headerText } from "./header-text";

/** Where Next.js believes it runs (prepareNextApp's options): it builds every route's request URL from them. */
export type ServedAt = { hostname: string; port: number };

const TABLES: Record<ApiFamily, RouteTable> = { api: PLATFORM_ROUTES, demo: DEMO_ROUTES };

/** Serves one API request, or answers false when the path is under no API family (Next.js then serves it). */
export type DirectApiHandler = (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<boolean>;

/**
 * Serves API requests straight from the platform server through the families' dispatch tables, the same tables
 * the families' catch-all route files serve from under Next.js, without its router and rendering: a Request as
 * Next builds it (the URL on the configured host and port, https when X-Forwarded-Proto says so; the node request's
 * headers and body), made only if the operation reads it (lib/http/request-head.ts); HEAD served by GET and answered
 * without a body; the answer written back compressed as Next compresses (JSON from its text, never made a
 * Response). Requests reach it already rewritten by the platform handler (canonical path, trusted internal headers,
 * response header defaults), exactly as they reach Next.
 */
export function directApiHandler(servedAt: ServedAt): DirectApiHandler {
  return async (req, res, pathname) => {
    const family = familyOf(pathname);
    if (!family) return false;
    const answer = await TABLES[family].answer(deferredRequest(req, servedAt));
    await writeAnswer(req, res, answer);
    return true;
  };
}

/** The request as its operation reads it: method, URL (as its Request would serialize it) and headers, from `req`. */
export function deferredRequest(req: IncomingMessage, servedAt: ServedAt): DeferredRequest {
  const protocol = headerText(req.headers["x-forwarded-proto"])?.includes("https") ? "https" : "http";
  const url = new URL(`${protocol}://${servedAt.hostname}:${servedAt.port}${req.url ?? "/"}`);
  const method = req.method ?? "GET";
  return new DeferredRequest(method, url, nodeHeaders(req), () => toRequest(req, method, url.href));
}

/** The node request's headers read as its Request's Headers would read them. */
function nodeHeaders(req: IncomingMessage): HeaderReader {
  return {
    get: (name) => {
      const value = req.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

function toRequest(req: IncomingMessage, method: string, url: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    // The node request itself, read only if the handler reads the body, as Next.js passes it: a body nobody reads
    // is discarded by Node once the answer is written, and the connection stays usable.
    body: hasBody ? (req as unknown as BodyInit) : undefined,
    duplex: "half",
  } as RequestInit);
}

async function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: Answer): Promise<void> {
  res.statusCode = answer.status;
  if (answer instanceof JsonAnswer) {
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    return writeBody(res, await compressBody(req, res, answer.json));
  }
  const response = answer;
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!response.body) return void res.end();
  // A body of known length that is never compressed (a bulk export's ndjson file) streams as it is read, with
  // backpressure: the same headers and bytes as when read whole, without holding the whole body first.
  if (response.headers.has("content-length") && !isCompressible(res)) {
    if (req.method === "HEAD") {
      await response.body.cancel();
      return void res.end();
    }
    return streamBody(res, response.body);
  }
  writeBody(res, await compressBody(req, res, Buffer.from(await response.arrayBuffer())));
}

/**
 * Writes a body stream to `res` chunk by chunk as it is read, waiting for the socket to drain before reading on (a
 * slow client slows the reads); a client that goes away cancels the stream. An error while reading is thrown after
 * the headers are sent (the platform handler then ends the connection).
 */
async function streamBody(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return void (await reader.cancel());
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    throw error;
  }
}

/** Resolves when `res` can take more (or its connection closed). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

function writeBody(res: ServerResponse, body: JsonText | Buffer): void {
  if (body instanceof JsonText) return writeJsonText(res, body);
  res.setHeader("Content-Length", body.length);
  res.end(body);
}
