import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { coalesceWrites } from "./coalesce-writes";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server whose handler answers through `answer` after coalescing, counting the socket writes it makes. */
async function serve(answer: (res: import("node:http").ServerResponse) => Promise<void> | void) {
  const writes: number[] = [];
  const server = createServer((req, res) => {
    const socket = res.socket as unknown as { _writeGeneric: (...args: unknown[]) => unknown };
    const writeGeneric = socket._writeGeneric;
    socket._writeGeneric = function (...args: unknown[]) {
      writes.push(1);
      return writeGeneric.apply(this, args);
    };
    coalesceWrites(res);
    void answer(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, writes };
}

function get(port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: "127.0.0.1", path: "/" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("coalesceWrites", () => {
  it("sends headers, a body chunk and the chunked terminator written as Next.js writes them in one socket write", async () => {
    const { port, writes } = await serve(async (res) => {
      res.statusCode = 200;
      res.flushHeaders();
      res.write('{"ok":true}');
      await Promise.resolve();
      res.end();
    });
    expect(await get(port)).toEqual({ status: 200, body: '{"ok":true}' });
    expect(writes).toHaveLength(1);
  });

  it("streams a body too large to buffer, waiting for drain as a backpressure-aware writer does", async () => {
    const chunk = "x".repeat(64 * 1024);
    const { port } = await serve(async (res) => {
      res.flushHeaders();
      for (let i = 0; i < 64; i++) {
        if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
      }
      res.end();
    });
    const { body } = await get(port);
    expect(body.length).toBe(64 * chunk.length);
  });
});
