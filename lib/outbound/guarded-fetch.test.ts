import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { listenOnFreePort } from "@/test/raw-http";
import { guardedFetch, OutboundError } from "./guarded-request";

// guardedFetch is the SMART client's fetch for live providers: the same rules as guardedGet (which the provider
// directory's tests cover in depth), with fetch's shape: methods, bodies, headers and the redirect modes.
let base = "";
let server: Awaited<ReturnType<typeof listenOnFreePort>>;
function answer(request: IncomingMessage, response: ServerResponse) {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    if (request.url === "/token") {
      return void response.writeHead(200, { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] }).end(JSON.stringify({ method: request.method, type: request.headers["content-type"], auth: request.headers.authorization, body: Buffer.concat(chunks).toString() }));
    }
    if (request.url === "/to-metadata") return void response.writeHead(302, { location: "https://169.254.169.254/latest/meta-data/" }).end();
    if (request.url === "/to-token") return void response.writeHead(302, { location: "/token" }).end();
    if (request.url === "/huge") return void response.writeHead(200).end("x".repeat(5_000));
    if (request.url === "/empty") return void response.writeHead(204).end();
    response.writeHead(404).end();
  });
}

beforeAll(async () => {
  server = await listenOnFreePort(answer);
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.close());
afterEach(() => vi.unstubAllEnvs());

const LIMITS = { timeoutMs: 5_000, maxBytes: 1_000 };
const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as OutboundError);

describe("guardedFetch", () => {
  it("refuses a host the deployment does not name before connecting, and sends to one it names like fetch would", async () => {
    const refused = await refusal(guardedFetch(`${base}/token`, { method: "POST", body: "x=1" }, LIMITS));
    expect(refused).toBeInstanceOf(OutboundError);
    expect(refused).toMatchObject({ kind: "refused", reason: expect.stringContaining("health systems must use https") });

    vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "127.0.0.1");
    const response = await guardedFetch(`${base}/token`, { method: "POST", headers: { authorization: "Basic abc" }, body: new URLSearchParams({ grant_type: "refresh_token" }) }, LIMITS);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.json()).toEqual({ method: "POST", type: "application/x-www-form-urlencoded;charset=UTF-8", auth: "Basic abc", body: "grant_type=refresh_token" });
    expect((await guardedFetch(`${base}/empty`, {}, LIMITS)).status).toBe(204);
  });

  it("re-checks each redirect it follows, follows none for redirect error or manual, and caps the answer's size", async () => {
    vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "127.0.0.1");
    expect(await refusal(guardedFetch(`${base}/to-metadata`, {}, LIMITS))).toMatchObject({ kind: "refused", reason: expect.stringMatching(/^refused redirect https:\/\/169\.254\.169\.254.*not a public address/) });
    expect(await (await guardedFetch(`${base}/to-token`, {}, LIMITS)).json()).toMatchObject({ method: "GET" });
    expect(await refusal(guardedFetch(`${base}/to-token`, { redirect: "error" }, LIMITS))).toMatchObject({ kind: "refused", reason: expect.stringContaining("redirects are not followed") });
    expect((await guardedFetch(`${base}/to-token`, { redirect: "manual" }, LIMITS)).status).toBe(302);
    expect(await refusal(guardedFetch(`${base}/huge`, {}, LIMITS))).toMatchObject({ kind: "too_large", reason: expect.stringContaining("larger than 1000 bytes") });
  });
});
