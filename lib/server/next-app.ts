import { createServer } from "node:http";
import next from "next";
import type { NextHandler } from "./platform-handler";

export type NextApp = { handle: NextHandler; close: () => Promise<void> };

/**
 * Next.js's production server as a request handler (its documented custom-server API), serving the build in
 * `dir`. `port` and `hostname` tell Next where it runs; the platform server does the listening.
 */
export async function prepareNextApp(options: { dir: string; port: number; hostname: string }): Promise<NextApp> {
  // Next attaches a WebSocket `upgrade` listener to `httpServer` (else to the server of the first request). In
  // production it serves only rewrites to external WebSocket servers, which the platform has none of, and it
  // leaves other upgrade requests' connections open unanswered. Giving it a server that never listens keeps the
  // platform's server without an `upgrade` listener, so Node hands such requests to the platform handler as
  // ordinary requests, which answer them like any other.
  const app = next({ dev: false, ...options, httpServer: createServer() });
  await app.prepare();
  const handle = app.getRequestHandler();
  return { handle: (req, res) => handle(req, res), close: () => app.close() };
}
