import type { ServerResponse } from "node:http";

/**
 * Puts `defaults` on the response unless whoever answers set the header itself. They are applied when the status
 * line is written: every path to the socket (an explicit writeHead, the implicit one of the first write or end,
 * flushHeaders) goes through `writeHead`. Setting them up front instead would mask a route's own value, because
 * Next.js copies a route's header only when the node response does not have it yet.
 */
export function setHeaderDefaults(res: ServerResponse, defaults: Record<string, string>): void {
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadWithDefaults(this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    for (const [name, value] of Object.entries(defaults)) {
      if (!this.hasHeader(name)) this.setHeader(name, value);
    }
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}
