import type { IncomingMessage } from "node:http";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { listenOnFreePort } from "@/test/raw-http";
import { deferredRequest } from "./direct-api";

const NAMES = ["authorization", "Authorization", "X-FORWARDED-FOR", "accept", "cookie", "x-many", "content-type", "x-absent", "host", "x-empty"];

/** Sends a request whose header lines are exactly `lines` (repeated fields included) and answers what the server saw. */
async function seenBy(lines: string[], inspect: (req: IncomingMessage) => unknown): Promise<unknown> {
  let seen: unknown;
  const { port, close } = await listenOnFreePort((req, res) => {
    seen = inspect(req);
    res.end();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(["GET /api/v1/a%20b/%7Bc%7D?q=1&q=\"2\" HTTP/1.1", `Host: 127.0.0.1:${port}`, "Connection: close", ...lines, "", ""].join("\r\n")));
      socket.on("data", () => {});
      socket.on("error", reject);
      socket.on("close", () => resolve());
    });
  } finally {
    await close();
  }
  return seen;
}

describe("a request the platform server serves directly", () => {
  it("reads each header and the URL as the Request made from it reads them, repeated fields included", async () => {
    const lines = [
      "Authorization: Bearer ck_test_abc",
      "X-Forwarded-For: 203.0.113.7",
      "X-Forwarded-For: 198.51.100.2 ,  192.0.2.1",
      "Accept: application/json",
      "Accept: text/plain;q=0.5",
      "Cookie: a=1",
      "Cookie: b=2",
      "X-Many: one",
      "x-many: two",
      "X-Empty: ",
      "Content-Type: application/json; charset=utf-8",
    ];
    const seen = (await seenBy(lines, (req) => {
      const deferred = deferredRequest(req, { hostname: "localhost", port: 3000 });
      const direct = { method: deferred.method, url: deferred.url, headers: NAMES.map((name) => deferred.headers.get(name)) };
      const request = deferred.request;
      return { direct, made: { method: request.method, url: request.url, headers: NAMES.map((name) => request.headers.get(name)) } };
    })) as { direct: unknown; made: unknown };
    expect(seen.direct).toEqual(seen.made);
    expect(seen.direct).toMatchObject({ method: "GET", url: 'http://localhost:3000/api/v1/a%20b/%7Bc%7D?q=1&q=%222%22' });
  });
});
