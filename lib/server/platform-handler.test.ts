import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { DATA_NOTICE, DATA_NOTICE_HEADER } from "@/lib/demo";
import { HEADER, INTERNAL_HEADER, SERVICE_VERSION } from "@/lib/http";
import { platformRequestHandler, type NextHandler } from "./platform-handler";
import { listenOnFreePort, rawRequest, send } from "@/test/raw-http";

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

type Seen = { method?: string; url?: string; headers: IncomingMessage["headers"] };

/** Next.js stand-in: records what it was handed and answers with `answer` (JSON 200 by default). */
async function platformWith(answer?: (req: IncomingMessage, res: ServerResponse) => void, trustedHops = 0) {
  const seen: Seen[] = [];
  const next: NextHandler = async (req, res) => {
    seen.push({ method: req.method, url: req.url, headers: { ...req.headers } });
    if (answer) return answer(req, res);
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ handled: true }));
  };
  const { port, close } = await listenOnFreePort(platformRequestHandler(next, trustedHops));
  servers.push(close);
  return { port, seen };
}

const header = (name: string) => name.toLowerCase();

describe("internal headers", () => {
  it("hands Next the server's client address and request id, never the client's", async () => {
    const { port, seen } = await platformWith();
    await send(port, {
      path: "/api/v1/app",
      headers: { [INTERNAL_HEADER.clientAddress]: "203.0.113.66", [INTERNAL_HEADER.requestId]: "req_forged", "X-Forwarded-For": "198.51.100.1" },
    });
    expect(seen[0]?.headers[INTERNAL_HEADER.clientAddress]).toBe("127.0.0.1");
    expect(seen[0]?.headers[INTERNAL_HEADER.requestId]).toMatch(/^req_[0-9A-Za-z]{24}$/);
  });

  it("trusts X-Forwarded-For only as far as the configured proxy hops", async () => {
    const { port, seen } = await platformWith(undefined, 1);
    await send(port, { path: "/", headers: { "X-Forwarded-For": "198.51.100.1, 192.0.2.44" } });
    expect(seen[0]?.headers[INTERNAL_HEADER.clientAddress]).toBe("192.0.2.44");
  });
});

describe("family headers", () => {
  it("puts Service-Version and the internal request id on every /api/v1 response Next writes", async () => {
    const { port, seen } = await platformWith((_req, res) => {
      res.statusCode = 204;
      res.end();
    });
    const response = await send(port, { method: "OPTIONS", path: "/api/v1/health" });
    expect(response.headers[header(HEADER.serviceVersion)]).toBe(SERVICE_VERSION);
    expect(response.headers[header(HEADER.requestId)]).toBe(seen[0]?.headers[INTERNAL_HEADER.requestId]);
  });

  it("puts the request id and the data notice on every /demo/v1 response", async () => {
    const { port, seen } = await platformWith();
    const response = await send(port, { path: "/demo/v1/health" });
    expect(response.headers[header(HEADER.requestId)]).toBe(seen[0]?.headers[INTERNAL_HEADER.requestId]);
    expect(response.headers[header(DATA_NOTICE_HEADER)]).toBe(DATA_NOTICE);
    expect(response.headers[header(HEADER.serviceVersion)]).toBeUndefined();
  });

  it("leaves a header the route set itself alone", async () => {
    const { port } = await platformWith((_req, res) => {
      res.setHeader(HEADER.requestId, "req_routeown");
      res.end("{}");
    });
    const response = await send(port, { path: "/api/v1/app" });
    expect(response.headers[header(HEADER.requestId)]).toBe("req_routeown");
    expect(response.headers[header(HEADER.serviceVersion)]).toBe(SERVICE_VERSION);
  });

  it("adds no API headers to pages", async () => {
    const { port } = await platformWith();
    const response = await send(port, { path: "/docs" });
    expect(response.headers[header(HEADER.serviceVersion)]).toBeUndefined();
    expect(response.headers[header(HEADER.requestId)]).toBeUndefined();
  });
});

describe("security headers", () => {
  it("sends nosniff on API and page responses", async () => {
    const { port } = await platformWith();
    for (const path of ["/", "/docs", "/_next/static/chunks/a.js", "/api/v1/health", "/demo/v1"]) {
      expect((await send(port, { path })).headers["x-content-type-options"], path).toBe("nosniff");
    }
  });

  it("gives each page request a fresh nonce policy, on the response and on the request Next renders from", async () => {
    const { port, seen } = await platformWith();
    const first = await send(port, { path: "/", headers: { "Content-Security-Policy": "script-src 'nonce-chosenbyclient'" } });
    const second = await send(port, { path: "/" });
    expect(first.headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(seen[0]?.headers["content-security-policy"]).toBe(first.headers["content-security-policy"]);
    expect(first.headers["content-security-policy"]).not.toContain("chosenbyclient");
    expect(second.headers["content-security-policy"]).not.toBe(first.headers["content-security-policy"]);
    expect(first.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(first.headers["x-frame-options"]).toBe("DENY");
  });

  it("puts no page policy on API responses", async () => {
    const { port, seen } = await platformWith();
    const response = await send(port, { path: "/api/v1/health" });
    expect(response.headers["content-security-policy"]).toBeUndefined();
    expect(seen[0]?.headers["content-security-policy"]).toBeUndefined();
  });

  it("sends HSTS only when a trusted proxy says the client used https", async () => {
    const untrusted = await platformWith();
    expect((await send(untrusted.port, { headers: { "X-Forwarded-Proto": "https" } })).headers["strict-transport-security"]).toBeUndefined();
    const trusted = await platformWith(undefined, 1);
    expect((await send(trusted.port, { headers: { "X-Forwarded-Proto": "https" } })).headers["strict-transport-security"]).toMatch(/^max-age=/);
    expect((await send(trusted.port, { headers: { "X-Forwarded-Proto": "http" } })).headers["strict-transport-security"]).toBeUndefined();
  });
});

describe("path normalisation", () => {
  it("rewrites API paths to one spelling and keeps the query", async () => {
    const { port, seen } = await platformWith();
    for (const path of ["/demo/v1/", "/api/v1//app", "//api/v1///users//u_1/records/?categories=a,b&x=%20"]) {
      expect((await send(port, { path })).status).toBe(200);
    }
    expect(seen.map((request) => request.url)).toEqual(["/demo/v1", "/api/v1/app", "/api/v1/users/u_1/records?categories=a,b&x=%20"]);
  });

  it("leaves page paths to Next.js", async () => {
    const { port, seen } = await platformWith();
    await send(port, { path: "/docs/" });
    expect(seen[0]?.url).toBe("/docs/");
  });

  it("chooses the API from the path as URL parsing reads it: escaped unreserved characters, backslashes, dot segments", async () => {
    const { port, seen } = await platformWith();
    for (const target of ["/api/%76%31/app", "/api/v1\\app", "/%61pi/v1/./app", "/demo/v1/x/../health"]) {
      const response = await rawRequest(port, `GET ${target} HTTP/1.1`);
      expect(response.status, target).toBe(200);
      expect(response.headers[header(HEADER.requestId)], target).toMatch(/^req_/);
      expect(response.headers["content-security-policy"], target).toBeUndefined();
    }
    expect(seen.map((request) => request.url)).toEqual(["/api/v1/app", "/api/v1/app", "/api/v1/app", "/demo/v1/health"]);
    expect((await rawRequest(port, "GET /api/%76%31/app HTTP/1.1")).headers[header(HEADER.serviceVersion)]).toBe(SERVICE_VERSION);
    // A path that only starts under the API but resolves to a page is a page: its policy, no API headers.
    const page = await rawRequest(port, "GET /api/v1/%2e%2e/%2E%2E/dashboard HTTP/1.1");
    expect(page.headers["content-security-policy"]).toMatch(/nonce-/);
    expect(page.headers[header(HEADER.serviceVersion)]).toBeUndefined();
  });
});

describe("form bodies for pages", () => {
  const boundary = "----chartkeyform";
  const form = `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`;
  const echoBody = async (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    for await (const chunk of req) body += String(chunk);
    res.end(body);
  };

  it("refuses a multipart POST whose body is not multipart with 400, before Next.js parses it", async () => {
    const { port, seen } = await platformWith(echoBody);
    for (const [contentType, body] of [
      ["multipart/form-data", "x=1"],
      [`multipart/form-data; boundary=${boundary}`, "not a form at all"],
      [`multipart/form-data; boundary=${boundary}`, form.slice(0, 40)],
    ]) {
      const response = await send(port, { method: "POST", path: "/", headers: { "Content-Type": contentType! }, body });
      expect(response.status, `${contentType} ${body}`).toBe(400);
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
    }
    expect(seen).toEqual([]);
  });

  it("hands a well-formed form to Next.js with its body intact, and refuses one over Next's 1 MB limit with 413", async () => {
    const { port, seen } = await platformWith(echoBody);
    const response = await send(port, { method: "POST", path: "/dashboard/x", headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` }, body: form });
    expect(response.status).toBe(200);
    expect(response.body).toBe(form);
    expect(seen.map((request) => [request.method, request.url])).toEqual([["POST", "/dashboard/x"]]);
    const large = `--${boundary}\r\nContent-Disposition: form-data; name="big"\r\n\r\n${"a".repeat(1024 * 1024)}\r\n--${boundary}--\r\n`;
    expect((await send(port, { method: "POST", path: "/", headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` }, body: large })).status).toBe(413);
  });

  it("leaves API requests to their operations, which refuse bodies that are not JSON", async () => {
    const { port, seen } = await platformWith();
    await send(port, { method: "POST", path: "/api/v1/connect/sessions", headers: { "Content-Type": "multipart/form-data" }, body: "x" });
    expect(seen.map((request) => request.url)).toEqual(["/api/v1/connect/sessions"]);
  });
});

describe("refusals", () => {
  function expectEnvelope(body: string, code: string, requestId: unknown) {
    expect(JSON.parse(body)).toEqual({ error: { type: "invalid_request_error", code, message: expect.any(String), requestId } });
  }

  it("answers malformed escapes under the APIs with 400 invalid_request and the family's headers, without Next", async () => {
    const { port, seen } = await platformWith();
    const api = await rawRequest(port, "GET /api/v1/%zz HTTP/1.1");
    expect(api.status).toBe(400);
    expect(api.headers[header(HEADER.serviceVersion)]).toBe(SERVICE_VERSION);
    expect(api.headers["cache-control"]).toBe("no-store");
    expectEnvelope(api.body, "invalid_request", api.headers[header(HEADER.requestId)]);
    const demo = await rawRequest(port, "GET /demo/v1/patients/%FF HTTP/1.1");
    expect(demo.status).toBe(400);
    expect(demo.headers[header(DATA_NOTICE_HEADER)]).toBe(DATA_NOTICE);
    expectEnvelope(demo.body, "invalid_request", demo.headers[header(HEADER.requestId)]);
    expect((await rawRequest(port, "GET /%zz HTTP/1.1")).status).toBe(400);
    expect(seen).toEqual([]);
  });

  it("answers unroutable methods under the APIs with 404 not_found, elsewhere 405, without Next", async () => {
    const { port, seen } = await platformWith();
    const api = await send(port, { method: "TRACE", path: "/api/v1/health" });
    expect(api.status).toBe(404);
    expect(api.headers[header(HEADER.serviceVersion)]).toBe(SERVICE_VERSION);
    expectEnvelope(api.body, "not_found", api.headers[header(HEADER.requestId)]);
    const demo = await send(port, { method: "PROPFIND", path: "/demo/v1" });
    expect(demo.status).toBe(404);
    expect(demo.headers[header(DATA_NOTICE_HEADER)]).toBe(DATA_NOTICE);
    const page = await send(port, { method: "TRACE", path: "/" });
    expect(page.status).toBe(405);
    expect(page.headers.allow).toContain("GET");
    expect(seen).toEqual([]);
  });

  it("hands every method Next.js routes to Next", async () => {
    const { port, seen } = await platformWith();
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) await send(port, { method, path: "/api/v1/app" });
    expect(seen.map((request) => request.method)).toEqual(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
  });

  it("answers 500 internal_error in the envelope if Next throws before answering", async () => {
    const { port } = await platformWith(() => {
      throw new Error("boom");
    });
    const response = await send(port, { path: "/api/v1/app" });
    expect(response.status).toBe(500);
    expect(JSON.parse(response.body)).toMatchObject({ error: { type: "api_error", code: "internal_error" } });
    expect(response.body).not.toContain("boom");
  });
});
