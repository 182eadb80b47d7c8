import { flushRequestLog } from "@/lib/http";
import { createPlatformServer, directApiHandler, type NextHandler } from "@/lib/server";
import { listenOnFreePort } from "./raw-http";

/**
 * The platform's HTTP server as `npm start` runs it, serving the API families from their dispatch tables (pages are not
 * served: they answer 404), on a free loopback port. For tests of clients that speak real HTTP to the API.
 */
export async function startApiServer(options: { trustedProxyHops?: number } = {}) {
  // The URL Next.js would build is on its configured host and port: bind the server first, then tell the handler.
  const servedAt = { hostname: "localhost", port: 0 };
  const directApi = directApiHandler(servedAt);
  const noPages: NextHandler = async (_req, res) => {
    res.statusCode = 404;
    res.end();
  };
  const listening = await listenOnFreePort(createPlatformServer(noPages, options.trustedProxyHops ?? 0, directApi));
  servedAt.port = listening.port;
  const origin = `http://127.0.0.1:${listening.port}`;
  return {
    origin,
    port: listening.port,
    close: async () => {
      await flushRequestLog();
      await listening.close();
    },
  };
}

export type Answer = { status: number; headers: Headers; body: Record<string, unknown> & { error?: { code: string; message: string } } };

/** One JSON request to the started server. */
export async function request(origin: string, method: string, pathname: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const response = await fetch(`${origin}${pathname}`, {
    method,
    headers: {
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  // An ndjson answer (a bulk export's file) is many JSON texts: kept as its text.
  if (response.headers.get("content-type")?.includes("ndjson")) return { status: response.status, headers: response.headers, body: { ndjson: text } };
  return { status: response.status, headers: response.headers, body: text === "" ? {} : JSON.parse(text) };
}
