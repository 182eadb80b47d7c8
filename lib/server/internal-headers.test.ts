import { afterEach, describe, expect, it } from "vitest";
import { INTERNAL_HEADER } from "@/lib/http";
import { assignInternalHeaders } from "./internal-headers";
import { listenOnFreePort, send } from "@/test/raw-http";

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

/** A server that runs assignInternalHeaders and echoes the request headers it would pass on to Next.js. */
async function echoServer(trustedHops: number): Promise<number> {
  const { port, close } = await listenOnFreePort((req, res) => {
    const requestId = assignInternalHeaders(req, trustedHops);
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ requestId, headers: req.headers }));
  });
  servers.push(close);
  return port;
}

async function passedOn(port: number, headers: Record<string, string> = {}) {
  const response = await send(port, { headers });
  return JSON.parse(response.body) as { requestId: string; headers: Record<string, string> };
}

describe("assignInternalHeaders", () => {
  it("records the socket's peer, whatever address headers the client sent", async () => {
    const port = await echoServer(0);
    const { headers } = await passedOn(port, {
      [INTERNAL_HEADER.clientAddress]: "203.0.113.66",
      "X-Chartkey-Client-Address": "203.0.113.67",
      "X-Forwarded-For": "198.51.100.1",
    });
    expect(headers[INTERNAL_HEADER.clientAddress]).toBe("127.0.0.1");
  });

  it("takes the address a trusted proxy appended, not what the client wrote before it", async () => {
    const port = await echoServer(1);
    const { headers } = await passedOn(port, { "X-Forwarded-For": "198.51.100.1, 192.0.2.44", [INTERNAL_HEADER.clientAddress]: "203.0.113.66" });
    expect(headers[INTERNAL_HEADER.clientAddress]).toBe("192.0.2.44");
  });

  it("replaces a client-sent request id with a new one per request, the one it returns", async () => {
    const port = await echoServer(0);
    const forged = "req_forgedforgedforgedforged";
    const first = await passedOn(port, { [INTERNAL_HEADER.requestId]: forged });
    const second = await passedOn(port, { [INTERNAL_HEADER.requestId]: forged });
    expect(first.headers[INTERNAL_HEADER.requestId]).toBe(first.requestId);
    expect(first.requestId).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(first.requestId).not.toBe(forged);
    expect(second.requestId).not.toBe(first.requestId);
  });
});
