import { createServer, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import next from "next";
import type { NextHandler } from "./platform-handler";

export type NextApp = {
  handle: NextHandler;
  close: () => Promise<void>;
  /** Development only: Next's WebSocket handler for hot reload (`/_next/webpack-hmr`), for the server's `upgrade`. */
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => Promise<void>;
};

/**
 * Next.js as a request handler (its documented custom-server API): the production server over the build in `dir`,
 * or with `dev` its development server (compiles on demand, hot reload). `port` and `hostname` tell Next where it
 * runs; the platform server does the listening.
 */
export async function prepareNextApp(options: { dir: string; port: number; hostname: string; dev?: boolean }): Promise<NextApp> {
  const { dev = false, ...where } = options;
  // Next attaches a WebSocket `upgrade` listener to `httpServer` (else to the server of the first request). In
  // production it serves only rewrites to external WebSocket servers, which the platform has none of, and it
  // leaves other upgrade requests' connections open unanswered. Giving it a server that never listens keeps the
  // platform's server without an `upgrade` listener, so Node hands such requests to the platform handler as
  // ordinary requests, which answer them like any other. In development the platform server hands Next the hot
  // reload socket's upgrades itself (`upgrade`).
  const app = next({ dev, ...where, httpServer: createServer() });
  await app.prepare();
  const handle = app.getRequestHandler();
  const upgrade = dev ? app.getUpgradeHandler() : undefined;
  return { handle: (req, res) => handle(req, res), close: () => app.close(), ...(upgrade ? { upgrade } : {}) };
}
