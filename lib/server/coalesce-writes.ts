import type { ServerResponse } from "node:http";

/**
 * Lets a response's writes leave in as few system calls as possible. Next.js writes an answer as its headers
 * (flushHeaders), then each body chunk, then the chunked terminator (end): three writes for a small JSON body. The
 * socket is corked until the turn of the event loop after the first body write, by which time a short answer has
 * usually ended (end() uncorks), so it goes out in one write; a long one is uncorked then and streams with the
 * usual backpressure (a corked socket never drains, so it must not stay corked while a writer waits for drain).
 */
export function coalesceWrites(res: ServerResponse): void {
  res.cork();
  const write = res.write;
  let scheduled = false;
  res.write = function writeCoalesced(this: ServerResponse, ...args: Parameters<ServerResponse["write"]>) {
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => {
        while (res.writableCorked > 0) res.uncork();
      });
    }
    return write.apply(this, args);
  } as ServerResponse["write"];
}
