import { createServer, request, type IncomingHttpHeaders, type RequestListener, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/** A real HTTP server on a free loopback port, for tests of code that runs inside one. */
export async function listenOnFreePort(listener: RequestListener | Server): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const server = typeof listener === "function" ? createServer(listener) : listener;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { server, port, close };
}

export type TestResponse = { status: number; headers: IncomingHttpHeaders; body: string };

/** node:http rather than fetch, which would refuse some methods and headers; a gzip-encoded body is decoded. */
export function send(port: number, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {}): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: options.method ?? "GET", path: options.path ?? "/", headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const bytes = Buffer.concat(chunks);
        const body = (res.headers["content-encoding"] === "gzip" ? gunzipSync(bytes) : bytes).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/**
 * Sends bytes exactly as written over a fresh connection and reads the answer until the server closes it.
 * fetch and Playwright's request client normalise paths (`//`, `%zz`) and refuse methods such as TRACE and
 * CONNECT, so the hostile requests these tests make need a raw socket. `host: false` leaves out the Host header.
 */
export function rawRequest(port: number, requestLine: string, headers: Record<string, string> = {}, options: { host?: boolean } = {}): Promise<RawResponse> {
  const host = options.host === false ? [] : [`Host: 127.0.0.1:${port}`];
  const lines = [requestLine, ...host, "Connection: close", ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${lines.join("\r\n")}\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no complete answer to ${requestLine}`)));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function parseResponse(bytes: Buffer): RawResponse {
  const split = bytes.indexOf("\r\n\r\n");
  const head = bytes.subarray(0, split === -1 ? 80 : split).toString("latin1");
  if (!head.startsWith("HTTP/1.1 ") || split === -1) throw new Error(`not an HTTP response: ${JSON.stringify(head)}`);
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const payload = bytes.subarray(split + 4);
  const body = (headers["transfer-encoding"] === "chunked" ? dechunk(payload) : payload).toString("utf8");
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

function dechunk(payload: Buffer): Buffer {
  const parts: Buffer[] = [];
  let rest = payload;
  for (;;) {
    const lineEnd = rest.indexOf("\r\n");
    const size = parseInt(rest.subarray(0, lineEnd).toString("latin1"), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    rest = rest.subarray(lineEnd + 2 + size + 2);
  }
}
