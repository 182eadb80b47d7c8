import { expect, test, type APIResponse } from "@playwright/test";
import { DATA_NOTICE, DATA_NOTICE_HEADER } from "@/lib/demo";
import { HEADER, SERVICE_VERSION } from "@/lib/http";
import { devSandboxKey } from "@/test/e2e-platform";
import { rawRequest, type RawResponse } from "@/test/raw-http";

// What a hostile client tries against the platform's own HTTP server in front of Next.js.

const REQUEST_ID = /^req_[0-9A-Za-z]{24}$/;
const API_VERSION = HEADER.serviceVersion.toLowerCase();
const API_REQUEST_ID = HEADER.requestId.toLowerCase();
const NOTICE = DATA_NOTICE_HEADER.toLowerCase();

function portOf(baseURL: string | undefined): number {
  if (!baseURL) throw new Error("the Playwright config sets baseURL");
  return Number(new URL(baseURL).port);
}

function expectApiHeaders(headers: Record<string, string>) {
  expect(headers[API_VERSION]).toBe(SERVICE_VERSION);
  expect(headers[API_REQUEST_ID]).toMatch(REQUEST_ID);
}

function expectDemoHeaders(headers: Record<string, string>) {
  expect(headers[API_REQUEST_ID]).toMatch(REQUEST_ID);
  expect(headers[NOTICE]).toBe(DATA_NOTICE);
}

/** The spec's error envelope, with the request id the response header carries. */
function expectEnvelope(response: RawResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers["content-type"]).toContain("application/json");
  expect(response.headers["cache-control"]).toBe("no-store");
  expect(JSON.parse(response.body)).toEqual({
    error: { type: "invalid_request_error", code, message: expect.any(String), requestId: response.headers[API_REQUEST_ID] },
  });
}

function nonceOf(policy: string | undefined): string | undefined {
  return /script-src [^;]*'nonce-([^']+)'/.exec(policy ?? "")?.[1];
}

test.describe("API responses Next.js writes itself", () => {
  test("OPTIONS and HEAD under /api/v1 carry Service-Version and a request id", async ({ request }) => {
    for (const response of [await request.fetch("/api/v1/health", { method: "OPTIONS" }), await request.head("/api/v1/health")]) {
      expect(response.status()).toBeLessThan(300);
      expectApiHeaders(response.headers());
    }
  });

  test("OPTIONS under /demo/v1 carries the request id and the data notice", async ({ request }) => {
    const response = await request.fetch("/demo/v1/health", { method: "OPTIONS" });
    expectDemoHeaders(response.headers());
  });

  test("a client-sent request id is never the one the response reports", async ({ baseURL }) => {
    const forged = "req_forgedforgedforgedforged";
    const response = await rawRequest(portOf(baseURL), "OPTIONS /api/v1/health HTTP/1.1", { "x-chartkey-request-id": forged });
    expectApiHeaders(response.headers);
    expect(response.headers[API_REQUEST_ID]).not.toBe(forged);
  });
});

test.describe("nosniff", () => {
  test("every kind of response carries X-Content-Type-Options: nosniff", async ({ request, baseURL }) => {
    const home = await request.get("/");
    const asset = /src="(\/_next\/static\/[^"]+\.js)"/.exec(await home.text())?.[1];
    expect(asset).toBeDefined();
    const responses: APIResponse[] = [
      home,
      await request.get("/docs"),
      await request.get(asset!),
      await request.get("/robots.txt"),
      await request.get("/no-such-page"),
      await request.get("/api/v1/health"),
      await request.get("/api/v1/app"),
      await request.get("/demo/v1"),
    ];
    for (const response of responses) expect(response.headers()["x-content-type-options"], response.url()).toBe("nosniff");
    expect((await rawRequest(portOf(baseURL), "GET /api/v1/%zz HTTP/1.1")).headers["x-content-type-options"]).toBe("nosniff");
  });
});

test.describe("one spelling of every API path", () => {
  test("GET /demo/v1/ answers exactly what GET /demo/v1 answers, without a redirect", async ({ request, baseURL }) => {
    const canonical = await request.get("/demo/v1");
    const slashed = await rawRequest(portOf(baseURL), "GET /demo/v1/ HTTP/1.1");
    expect(slashed.status).toBe(200);
    expectDemoHeaders(slashed.headers);
    expect(JSON.parse(slashed.body)).toEqual(await canonical.json());
  });

  test("repeated slashes under /api/v1 reach the operation, not a 308", async ({ baseURL }) => {
    const app = await rawRequest(portOf(baseURL), "GET /api/v1//app HTTP/1.1");
    expectEnvelope(app, 401, "missing_api_key");
    expectApiHeaders(app.headers);
    const health = await rawRequest(portOf(baseURL), "GET //api/v1///health/ HTTP/1.1");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: "ok" });
  });

  test("the query string survives the rewrite", async ({ request, baseURL }) => {
    const { links } = (await (await request.get("/demo/v1")).json()) as { links: { default_records: string } };
    const doubled = links.default_records.replace("/users/", "/users//");
    expect((await rawRequest(portOf(baseURL), `GET ${doubled}/ HTTP/1.1`)).status).toBe(200);
    // The record route refuses `cursor` (the demo accepts only categories there), so the 400 proves the query reached it.
    const withQuery = await rawRequest(portOf(baseURL), `GET ${doubled}/?cursor=abc HTTP/1.1`);
    expectEnvelope(withQuery, 400, "invalid_query");
  });
});

test.describe("malformed percent-escapes", () => {
  test("under /api/v1 they answer 400 invalid_request in the envelope with the API's headers", async ({ baseURL }) => {
    for (const path of ["/api/v1/%zz", "/api/v1/%", "/api/v1/users/%E0%A4%A/records"]) {
      const response = await rawRequest(portOf(baseURL), `GET ${path} HTTP/1.1`);
      expectEnvelope(response, 400, "invalid_request");
      expectApiHeaders(response.headers);
    }
  });

  test("under /demo/v1 they answer 400 invalid_request with the demo's headers", async ({ baseURL }) => {
    const response = await rawRequest(portOf(baseURL), "GET /demo/v1/patients/%FF HTTP/1.1");
    expectEnvelope(response, 400, "invalid_request");
    expectDemoHeaders(response.headers);
  });

  test("elsewhere they answer a plain 400, never a 500", async ({ baseURL }) => {
    const response = await rawRequest(portOf(baseURL), "GET /docs/%zz HTTP/1.1");
    expect(response.status).toBe(400);
  });
});

test.describe("methods Next.js does not route", () => {
  test("under /api/v1 they answer 404 not_found in the envelope with the API's headers", async ({ baseURL }) => {
    // TRACE and PROPFIND reach the request handler; BREW is refused by Node's parser; CONNECT has its own event.
    for (const line of ["TRACE /api/v1/health", "PROPFIND /api/v1/app", "BREW /api/v1/health", "CONNECT /api/v1/app"]) {
      const response = await rawRequest(portOf(baseURL), `${line} HTTP/1.1`);
      expectEnvelope(response, 404, "not_found");
      expectApiHeaders(response.headers);
    }
  });

  test("under /demo/v1 they answer 404 not_found with the demo's headers", async ({ baseURL }) => {
    for (const line of ["TRACE /demo/v1", "CONNECT /demo/v1/health", "PURGE /demo/v1/patients"]) {
      const response = await rawRequest(portOf(baseURL), `${line} HTTP/1.1`);
      expectEnvelope(response, 404, "not_found");
      expectDemoHeaders(response.headers);
    }
  });

  test("elsewhere they answer 405", async ({ baseURL }) => {
    expect((await rawRequest(portOf(baseURL), "TRACE / HTTP/1.1")).status).toBe(405);
  });
});

test("an Upgrade request is answered like any other instead of being left open", async ({ baseURL }) => {
  const response = await rawRequest(portOf(baseURL), "GET /api/v1/health HTTP/1.1", { Connection: "Upgrade", Upgrade: "websocket" });
  expect(response.status).toBe(200);
  expectApiHeaders(response.headers);
});

test.describe("page security headers", () => {
  for (const path of ["/", "/docs", "/docs/guides/quickstart"]) {
    test(`${path} carries a nonce CSP, referrer policy and frame denial, and its scripts carry the nonce`, async ({ request }) => {
      const response = await request.get(path);
      const headers = response.headers();
      const policy = headers["content-security-policy"];
      const nonce = nonceOf(policy);
      expect(nonce).toBeTruthy();
      expect(policy).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
      for (const directive of ["object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'", "form-action 'self'"]) {
        expect(policy).toContain(directive);
      }
      expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(headers["x-frame-options"]).toBe("DENY");
      const html = await response.text();
      const scriptNonces = [...html.matchAll(/<script[^>]*\snonce="([^"]+)"/g)].map((match) => match[1]);
      expect(scriptNonces.length).toBeGreaterThan(0);
      expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
    });
  }

  test("each document gets its own nonce, and a client-sent policy cannot choose it", async ({ request }) => {
    const first = nonceOf((await request.get("/")).headers()["content-security-policy"]);
    const forged = await request.get("/", { headers: { "Content-Security-Policy": "script-src 'nonce-chosenbyclient'" } });
    const second = nonceOf(forged.headers()["content-security-policy"]);
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    expect(await forged.text()).not.toContain("chosenbyclient");
  });

  test("HSTS is not sent over plain http, even when a client claims https", async ({ request }) => {
    // The test server trusts no proxy hops, so X-Forwarded-Proto is client input.
    const response = await request.get("/", { headers: { "X-Forwarded-Proto": "https" } });
    expect(response.headers()["strict-transport-security"]).toBeUndefined();
    expect(response.headers()["content-security-policy"]).not.toContain("upgrade-insecure-requests");
  });
});

test.describe("pages run under the enforced CSP in Chromium", () => {
  for (const path of ["/", "/docs", "/docs/guides/quickstart"]) {
    test(`${path} loads and hydrates with no CSP violation`, async ({ page }) => {
      const violations: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
      });
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => console.error(`Refused to load: ${event.violatedDirective} ${event.blockedURI}`));
      });
      const response = await page.goto(path);
      expect(nonceOf(response?.headers()["content-security-policy"])).toBeTruthy();
      // Next.js's client runtime sets window.next only if its nonce-carrying scripts ran.
      await expect.poll(() => page.evaluate(() => typeof (window as { next?: { version?: string } }).next?.version)).toBe("string");
      await page.waitForLoadState("load");
      expect(violations).toEqual([]);
    });
  }

  test("client-side navigation from / to /docs works under the policy", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    await page.goto("/");
    await page.getByRole("link", { name: /API reference/ }).click();
    // Scalar puts the document it shows in the fragment.
    await expect(page).toHaveURL(/\/docs(#platform)?$/);
    await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
    expect(violations).toEqual([]);
  });
});

test.describe("hostile input the platform answers itself (issue 18)", () => {
  test("a multipart POST to a page whose body is not multipart answers 400, never Next's 500", async ({ request }) => {
    for (const path of ["/", "/dashboard", "/sign-in"]) {
      for (const contentType of ["multipart/form-data", "multipart/form-data; boundary=xyz"]) {
        const response = await request.post(path, { headers: { "Content-Type": contentType }, data: "this is not a form", maxRedirects: 0 });
        expect(response.status(), `${path} ${contentType}`).toBe(400);
        expect(response.headers()["x-content-type-options"]).toBe("nosniff");
      }
    }
  });

  test("the same API path spelled with escaped unreserved characters or a backslash gets the API's answer and headers", async ({ baseURL }) => {
    for (const path of ["/api/%76%31/app", "/api/v1\\app", "/%61pi/v1/%61pp"]) {
      const response = await rawRequest(portOf(baseURL), `GET ${path} HTTP/1.1`);
      expectEnvelope(response, 401, "missing_api_key");
      expectApiHeaders(response.headers);
    }
  });

  test("an Expect the server cannot meet and a request without Host are answered in the envelope with the API's headers", async ({ baseURL }) => {
    const expectation = await rawRequest(portOf(baseURL), "GET /api/v1/health HTTP/1.1", { Expect: "999-nope" });
    expectEnvelope(expectation, 417, "invalid_request");
    expectApiHeaders(expectation.headers);
    const hostless = await rawRequest(portOf(baseURL), "GET /api/v1/app HTTP/1.1", {}, { host: false });
    expectEnvelope(hostless, 400, "invalid_request");
    expectApiHeaders(hostless.headers);
  });

  test("NUL bytes in path ids answer 404 and a deeply nested body 400, on a keyed request", async ({ request }) => {
    const headers = { Authorization: `Bearer ${devSandboxKey()}` };
    for (const [path, code] of [
      ["/api/v1/consents/%00", "not_found"],
      ["/api/v1/connect/sessions/%00", "not_found"],
      ["/api/v1/users/%00/records", "not_found"],
      ["/api/v1/tefca/sessions/%00", "session_not_found"],
    ] as const) {
      const response = await request.get(path, { headers });
      expect(response.status(), path).toBe(404);
      expect((await response.json()).error.code, path).toBe(code);
    }
    const deep = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);
    const nested = await request.post("/api/v1/tefca/sessions", { headers: { ...headers, "Content-Type": "application/json" }, data: deep });
    expect(nested.status()).toBe(400);
    expect((await nested.json()).error.code).toBe("invalid_request");
  });
});
