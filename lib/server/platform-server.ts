import { createServer, IncomingMessage, ServerResponse, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, newRequestId } from "@/lib/http";
import { familyErrorResponse, familyOf, type ApiFamily } from "./api-families";
import { isRoutableMethod } from "./routable-methods";
import type { DirectApiHandler } from "./direct-api";
import { platformRequestHandler, type NextHandler } from "./platform-handler";
import { canonicalPath, splitTarget } from "./request-target";
import { sendWebResponse } from "./send-web-response";
import { processState } from "@/lib/process-state";

type Handle = ReturnType<typeof platformRequestHandler>;

/** Node's own answers to requests it cannot parse, as its default clientError handling gives them. */
const PARSE_FAILURE: Record<string, string> = {
  HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large",
  ERR_HTTP_REQUEST_TIMEOUT: "408 Request Timeout",
};

/** What the API families say for each of those failures, in their envelope. */
const PARSE_FAILURE_MESSAGE: Record<string, string> = {
  "400": "The request is not valid HTTP/1.1.",
  "408": "The request did not arrive in time.",
  "413": "The request's chunk extensions are too large.",
  "431": "The request's header fields are too large.",
};

/** A parse failure under an API answered in the family's envelope, with its headers and nosniff. */
function parseFailureResponse(family: ApiFamily, status: string): Response {
  const code = Number(status.slice(0, 3));
  const error = new ApiError(code === 413 ? "payload_too_large" : "invalid_request", PARSE_FAILURE_MESSAGE[String(code)]!, { status: code });
  const response = familyErrorResponse(family, error, newRequestId());
  response.headers.set("X-Content-Type-Options", "nosniff");
  return response;
}

/**
 * Answers a request that arrived without a response object (CONNECT, or a request line Node refused) through the
 * ordinary handler, on a response bound to the raw socket, then closes the connection.
 */
function answerOnSocket(handle: Handle, req: IncomingMessage, socket: Duplex): void {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as IncomingMessage["socket"]);
  res.once("finish", () => {
    res.detachSocket(socket as IncomingMessage["socket"]);
    socket.end();
  });
  void handle(req, res);
}

/**
 * CONNECT is a tunnel request, so Node hands it to the `connect` event instead of `request`; without a listener
 * it drops the connection unanswered. It gets the same answer as any method Next does not route.
 */
function onConnect(handle: Handle) {
  return (req: IncomingMessage, socket: Duplex) => {
    socket.on("error", () => socket.destroy());
    answerOnSocket(handle, req, socket);
  };
}

/** The request line of a request Node refused to parse, when it is one: `BREW /api/v1/app HTTP/1.1`. */
function refusedRequestLine(rawPacket: unknown): { method: string; url: string } | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(rawPacket.toString("latin1"));
  return line ? { method: line[1]!, url: line[2]! } : undefined;
}

/**
 * Node's HTTP parser rejects method tokens it does not know (anything outside its fixed list) before a request
 * exists. Those still get the platform's answer for an unroutable method, built from the raw request line; any
 * other parse failure gets the status Node itself would send: in the API family's envelope (with Request-Id and
 * Service-Version) when the raw request line names a path under an API, bare otherwise. As in Node, nothing is
 * written while a response is in flight on the connection.
 */
function onClientError(handle: Handle) {
  return (error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex) => {
    if (error.code === "ECONNRESET") return void socket.destroy();
    // Bytes after a request on a kept-alive connection (a body sent without framing, pipelined garbage) fail to
    // parse while that request is still being answered. Its response owns the socket: binding another one threw
    // ERR_HTTP_SOCKET_ASSIGNED out of this listener and took the process down. The answer in flight finishes,
    // then the connection closes; the refused bytes get nothing, as Node does once a response is under way.
    const inFlight = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight) {
      inFlight.shouldKeepAlive = false;
      return void inFlight.once("close", () => socket.destroy());
    }
    // A kept-alive connection whose earlier answers are finished has sent bytes but has none in flight: it gets its
    // answer (refusing it there reset the connection under a client waiting for a 431).
    if (!socket.writable) return void socket.destroy();
    const line = refusedRequestLine(error.rawPacket);
    if (error.code === "HPE_INVALID_METHOD" && line && !isRoutableMethod(line.method)) {
      const req = new IncomingMessage(socket as IncomingMessage["socket"]);
      Object.assign(req, line);
      return answerOnSocket(handle, req, socket);
    }
    const status = PARSE_FAILURE[error.code ?? ""] ?? "400 Bad Request";
    const family = line ? familyOf(canonicalPath(splitTarget(line.url).pathname)) : undefined;
    if (line && family) {
      const req = new IncomingMessage(socket as IncomingMessage["socket"]);
      Object.assign(req, line);
      return answerOnSocket((_req, res) => sendWebResponse(res, parseFailureResponse(family, status)), req, socket);
    }
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\nContent-Length: 0\r\n\r\n`);
  };
}

/** How long an idle kept-alive connection stays open. */
const KEEP_ALIVE_MS = 65_000;

/**
 * The platform's HTTP server: every request, including the ones Node does not hand to `request`, passes
 * through the platform handler before (or instead of) Next.js; with `directApi`, API requests skip Next.js.
 */
export function createPlatformServer(handleNext: NextHandler, trustedHops: number, directApi?: DirectApiHandler): Server {
  const handlers = { running: 0, settled: [] as (() => void)[] };
  const platformHandle = platformRequestHandler(handleNext, trustedHops, directApi);
  const handle: Handle = async (req, res) => {
    handlers.running += 1;
    try {
      await platformHandle(req, res);
    } finally {
      handlers.running -= 1;
      if (handlers.running === 0) for (const resolve of handlers.settled.splice(0)) resolve();
    }
  };
  // Node would answer a request without Host (400) and an Expect it does not know (417) itself, bare: both reach
  // the platform handler instead, which answers them with the family's envelope and headers (lib/server/refusal.ts).
  const server = createServer({ requireHostHeader: false }, (req, res) => void handle(req, res));
  // A kept-alive connection stays open for a minute idle (Node's default is 5 s): a client that reuses one just as
  // the server closes it gets a reset request, so the server must outwait its clients and the proxies in front of
  // it (60 s idle is the common load balancer default). Headers must be allowed longer than that idle time.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => void handle(req, res));
  server.on("connect", onConnect(handle));
  server.on("clientError", onClientError(handle));
  runningHandlers.set(server, handlers);
  return server;
}

// Handlers still running per server. A server's connections are not its requests: a client that went away leaves
// its handler running (reading the database) with no connection left for `close` to wait for.
const runningHandlers = processState("server.running-handlers", () => new WeakMap<Server, { running: number; settled: (() => void)[] }>());

function handlersSettled(server: Server, withinMs: number): Promise<void> {
  const handlers = runningHandlers.get(server);
  if (!handlers || handlers.running === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, withinMs));
    handlers.settled.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Stops accepting connections and lets requests in flight finish, including those whose client has gone away, so
 * that nothing is still using Next.js or the database when the caller shuts them down. Kept-alive connections are
 * closed as soon as they fall idle (Node closes only those idle at the moment of `close`), and after `graceMs` the
 * remaining ones are cut and running handlers are no longer waited for, so neither a browser's open connection nor
 * a stuck request holds shutdown open.
 */
export function closePlatformServer(server: Server, graceMs = 5_000): Promise<void> {
  const deadline = Date.now() + graceMs;
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const cutoff = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      void handlersSettled(server, deadline - Date.now()).then(() => {
        clearTimeout(cutoff);
        resolve();
      });
    });
    server.closeIdleConnections();
  });
}
