import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_NOTICE_HEADER } from "@/lib/demo";
import { HEADER, INTERNAL_HEADER, JSON_CHUNK_CHARS, SERVICE_VERSION } from "@/lib/http";
import { dispatchApiRequest } from "@/lib/routes";
import { createTestApplication } from "@/test/factories";
import { listenOnFreePort, rawRequest, send } from "@/test/raw-http";
import { sharingSubject } from "@/test/records";
import { directApiHandler } from "./direct-api";
import type { NextHandler } from "./platform-handler";
import { createPlatformServer } from "./platform-server";

// The platform server as `npm start` runs it by default: API requests go to their families' dispatch tables directly,
// everything else to Next.js (a stand-in here that records what reached it).

const reachedNext: string[] = [];
const stubNext: NextHandler = async (req, res) => {
  reachedNext.push(`${req.method} ${req.url}`);
  res.end("page");
};

const REQUEST_ID = /^req_[0-9A-Za-z]{24}$/;
let port: number;
let close: () => Promise<void>;
let key: string;

beforeAll(async () => {
  // The URL Next.js would build is on its configured host and port: bind the server first, then tell the handler.
  const servedAt = { hostname: "localhost", port: 0 };
  const listening = await listenOnFreePort(createPlatformServer(stubNext, 0, directApiHandler(servedAt)));
  servedAt.port = listening.port;
  ({ port, close } = listening);
  key = (await createTestApplication()).sandboxKey;
});
afterAll(() => close());

function expectApiHeaders(headers: Record<string, string | string[] | undefined>) {
  expect(headers[HEADER.serviceVersion.toLowerCase()]).toBe(SERVICE_VERSION);
  expect(headers[HEADER.requestId.toLowerCase()]).toMatch(REQUEST_ID);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["content-security-policy"]).toBeUndefined();
}

describe("the direct path of the platform server", () => {
  it("serves keyed and keyless operations without Next.js, with the API's headers and no page policy", async () => {
    const health = await send(port, { path: "/api/v1/health" });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: "ok" });
    expectApiHeaders(health.headers);

    const app = await send(port, { path: "/api/v1/app", headers: { Authorization: `Bearer ${key}` } });
    expect(app.status).toBe(200);
    expect(JSON.parse(app.body)).toMatchObject({ object: "application", environment: "sandbox" });
    expect(app.headers.ratelimit).toBeDefined();
    expectApiHeaders(app.headers);
    expect(reachedNext).toEqual([]);
  });

  it("still hands pages to Next.js", async () => {
    const page = await send(port, { path: "/docs" });
    expect(page.body).toBe("page");
    expect(reachedNext).toEqual(["GET /docs"]);
    reachedNext.length = 0;
  });

  it("answers HEAD as GET without a body, and OPTIONS with the path's methods", async () => {
    const head = await send(port, { method: "HEAD", path: "/api/v1/health" });
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expectApiHeaders(head.headers);
    const options = await send(port, { method: "OPTIONS", path: "/api/v1/app" });
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe("GET, OPTIONS");
    expectApiHeaders(options.headers);
  });

  it("answers unknown paths and unserved methods with the envelope's 404", async () => {
    const unknown = await send(port, { path: "/api/v1/no/such/path" });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ error: { code: "not_found", requestId: unknown.headers["request-id"] } });
    expectApiHeaders(unknown.headers);
    const post = await send(port, { method: "POST", path: "/api/v1/app" });
    expect(post.status).toBe(404);
    expect(post.headers.allow).toBe("GET");
    const demo = await send(port, { path: "/demo/v1/nothing" });
    expect(demo.status).toBe(404);
    expect(demo.headers[DATA_NOTICE_HEADER.toLowerCase()]).toBeDefined();
  });

  it("serves one spelling of every path and never trusts a client's request id", async () => {
    const forged = "req_forgedforgedforgedforged";
    const response = await rawRequest(port, "GET //api/v1///app/ HTTP/1.1", { [INTERNAL_HEADER.requestId]: forged });
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: "missing_api_key" } });
    expect(response.headers["request-id"]).toMatch(REQUEST_ID);
    expect(response.headers["request-id"]).not.toBe(forged);
  });

  it("reads bodies with the same limit and answers with the envelope", async () => {
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const tooLarge = await send(port, { method: "POST", path: "/api/v1/connect/sessions", headers, body: JSON.stringify({ pad: "x".repeat(200_000) }) });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body)).toMatchObject({ error: { code: "payload_too_large" } });
    const invalid = await send(port, { method: "POST", path: "/api/v1/connect/sessions", headers, body: "{not json" });
    expect(JSON.parse(invalid.body)).toMatchObject({ error: { code: "invalid_json" } });
  });

  it("builds the request URL as Next.js does (its configured host and port) and compresses as Next.js does", async () => {
    const metadata = await send(port, { path: "/demo/v1/fhir/metadata", headers: { "Accept-Encoding": "gzip" } });
    expect(metadata.headers["content-encoding"]).toBe("gzip");
    expect(metadata.headers.vary).toContain("Accept-Encoding");
    expect(JSON.parse(metadata.body).implementation.url).toBe(`http://localhost:${port}/demo/v1/fhir`);
    const plain = await send(port, { path: "/demo/v1/fhir/metadata" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(plain.body)).toEqual(JSON.parse(metadata.body));
  });

  it("writes records pages in chunks, never one string: whole, with their Content-Length, plain or compressed", async () => {
    const { sandboxKey, subject } = await sharingSubject();
    const headers = { Authorization: `Bearer ${sandboxKey}` };
    for (const path of [`/api/v1/users/${subject.id}/records/labs?limit=100`, `/api/v1/users/${subject.id}/records`]) {
      const plain = await send(port, { path, headers });
      expect(plain.status).toBe(200);
      // Long enough to leave in several chunks, and exactly as long as it says.
      expect(plain.body.length).toBeGreaterThan(JSON_CHUNK_CHARS);
      expect(Number(plain.headers["content-length"])).toBe(Buffer.byteLength(plain.body));
      const compressed = await send(port, { path, headers: { ...headers, "Accept-Encoding": "gzip" } });
      expect(compressed.headers["content-encoding"]).toBe("gzip");
      const viaResponse = await dispatchApiRequest(new Request(`http://localhost${path}`, { headers }));
      const expected = withoutRunFields(await viaResponse.json());
      expect(withoutRunFields(JSON.parse(plain.body))).toEqual(expected);
      expect(withoutRunFields(JSON.parse(compressed.body))).toEqual(expected);
    }
  });
});

/** An answer without what differs from one read to the next (the snapshot's generatedAt). */
function withoutRunFields(body: { meta?: Record<string, unknown> }) {
  return { ...body, meta: { ...body.meta, generatedAt: undefined } };
}
