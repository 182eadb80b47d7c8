import { createServer, IncomingMessage, ServerResponse, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { isRoutableMethod } from "./routable-methods";
import { platformRequestHandler, type NextHandler } from "./platform-handler";

type Handle = ReturnType<typeof platformRequestHandler>;

/** Node's own answers to requests it cannot parse, as its default clientError handling gives them. */
const PARSE_FAILURE: Record<string, string> = {
  HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large",
  ERR_HTTP_REQUEST_TIMEOUT: "408 Request Timeout",
};

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
 * other parse failure gets the status Node itself would send. As in Node, nothing is written once the socket has
 * sent bytes (a response may be in flight on a kept-alive connection).
 */
function onClientError(handle: Handle) {
  return (error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex & { bytesWritten?: number }) => {
    if (error.code === "ECONNRESET" || !socket.writable || socket.bytesWritten) return void socket.destroy();
    const line = error.code === "HPE_INVALID_METHOD" ? refusedRequestLine(error.rawPacket) : undefined;
    if (line && !isRoutableMethod(line.method)) {
      const req = new IncomingMessage(socket as IncomingMessage["socket"]);
      Object.assign(req, line);
      return answerOnSocket(handle, req, socket);
    }
    const status = PARSE_FAILURE[error.code ?? ""] ?? "400 Bad Request";
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\nContent-Length: 0\r\n\r\n`);
  };
}

/**
 * The platform's HTTP server: every request, including the ones Node does not hand to `request`, passes
 * through the platform handler before (or instead of) Next.js.
 */
export function createPlatformServer(handleNext: NextHandler, trustedHops: number): Server {
  const handle = platformRequestHandler(handleNext, trustedHops);
  const server = createServer((req, res) => void handle(req, res));
  server.on("connect", onConnect(handle));
  server.on("clientError", onClientError(handle));
  return server;
}

/**
 * Stops accepting connections and lets requests in flight finish. Kept-alive connections are closed as soon as
 * they fall idle (Node closes only those idle at the moment of `close`), and after `graceMs` the remaining ones
 * are cut, so neither a browser's open connection nor a stuck client holds shutdown open.
 */
export function closePlatformServer(server: Server, graceMs = 5_000): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const cutoff = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cutoff);
      resolve();
    });
    server.closeIdleConnections();
  });
}
