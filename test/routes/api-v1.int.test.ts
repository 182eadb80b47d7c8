import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError, SERVICE_VERSION } from "@/lib/http";
import { bearer, createTestApplication } from "@/test/factories";
import { testOperation } from "@/test/operations";
import { route } from "@/lib/api";
import { dispatchApiRequest } from "@/lib/routes";

const BASE = "http://localhost/api/v1";

async function expectEnvelope(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("service-version")).toBe(SERVICE_VERSION);
  expect(response.headers.get("request-id")).toMatch(/^req_[0-9A-Za-z]{24}$/);
  expect(response.headers.get("content-type")).toMatch(/application\/json/);
  const body = await response.json();
  expect(body).toEqual({
    error: {
      type: status >= 500 ? "api_error" : "invalid_request_error",
      code,
      message: expect.any(String),
      requestId: response.headers.get("request-id"),
    },
  });
  return body.error as { message: string };
}

describe("every /api/v1 path family answers with the version header, a request id and the error envelope", () => {
  it("health: 200 with Service-Version and a request id", async () => {
    const response = await dispatchApiRequest(new Request(`${BASE}/health`));
    expect(response.status).toBe(200);
    expect(response.headers.get("service-version")).toBe(SERVICE_VERSION);
    expect(response.headers.get("request-id")).toMatch(/^req_/);
    expect(await response.json()).toMatchObject({ status: "ok", checks: { database: "ok" } });
  });

  it("app: a keyed route answers errors in the envelope", async () => {
    await expectEnvelope(await dispatchApiRequest(new Request(`${BASE}/app`)), 401, "missing_api_key");
  });

  it("unknown paths, on every method, are 404 not_found in the envelope", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
      const request = new Request(`${BASE}/no/such/thing`, { method });
      const response = await dispatchApiRequest(request);
      await expectEnvelope(response, 404, "not_found");
    }
    // The optional catch-all also answers the bare prefix.
    await expectEnvelope(await dispatchApiRequest(new Request(BASE)), 404, "not_found");
  });

  it("a method a path does not serve is 404 not_found naming the allowed methods", async () => {
    const response = await dispatchApiRequest(new Request(`${BASE}/app`, { method: "DELETE" }));
    const error = await expectEnvelope(response, 404, "not_found");
    expect(error.message).toContain("GET");
    expect(response.headers.get("allow")).toBe("GET");
  });

  it("an unexpected exception becomes 500 internal_error without leaking its message or stack", async () => {
    const boom = route(testOperation({ method: "GET", path: "/boom", auth: "none" }), async () => {
      throw new Error("secret internal detail at /srv/app.ts:12");
    });
    const response = await boom(new Request(`${BASE}/boom`));
    const error = await expectEnvelope(response, 500, "internal_error");
    expect(error.message).not.toContain("secret");
    expect(JSON.stringify(error)).not.toContain("app.ts");
  });

  it("an ApiError keeps its code, status and extra headers", async () => {
    const limited = route(testOperation({ method: "GET", path: "/limited", auth: "none" }), async () => {
      throw new ApiError("rate_limited", "slow down", { headers: { "Retry-After": "7" } });
    });
    const response = await limited(new Request(`${BASE}/limited`));
    await expectEnvelope(response, 429, "rate_limited");
    expect(response.headers.get("retry-after")).toBe("7");
  });

  it("query and body validation failures are 400 invalid_request naming the field", async () => {
    const { sandboxKey } = await createTestApplication();
    const things = route(
      testOperation({
        method: "POST",
        path: "/things",
        auth: "key",
        query: z.object({ mode: z.enum(["a", "b"]).optional().describe("A mode.") }),
        body: z.strictObject({ name: z.string() }),
      }),
      async ({ body }) => ({ status: 201, body }),
    );
    const post = (url: string, body: string) =>
      things(new Request(url, { method: "POST", body, headers: { ...bearer(sandboxKey), "content-type": "application/json" } }));
    expect((await expectEnvelope(await post(`${BASE}/things?mode=z`, `{"name":"x"}`), 400, "invalid_request")).message).toContain("mode");
    expect((await expectEnvelope(await post(`${BASE}/things`, `{}`), 400, "invalid_request")).message).toContain("name");
    expect((await expectEnvelope(await post(`${BASE}/things`, `{"name":"x","extra":1}`), 400, "invalid_request")).message).toContain("extra");
    await expectEnvelope(await post(`${BASE}/things`, `{"name":`), 400, "invalid_json");
    await expectEnvelope(await post(`${BASE}/things`, `[1]`), 400, "invalid_json");
    const ok = await post(`${BASE}/things`, `{"name":"x"}`);
    expect(ok.status).toBe(201);
    expect(ok.headers.get("service-version")).toBe(SERVICE_VERSION);
    expect(ok.headers.get("ratelimit-policy")).toBe('"key";q=300;w=60');
  });

  it("bodies over 64 KiB are 413 payload_too_large, with or without Content-Length, and the handler never runs", async () => {
    const { sandboxKey } = await createTestApplication();
    let ran = 0;
    const bigRoute = route(testOperation({ method: "POST", path: "/big", auth: "key", body: z.object({ x: z.string() }) }), async () => {
      ran += 1;
      return { body: {} };
    });
    const big = new TextEncoder().encode(`{"x":"${"a".repeat(65 * 1024)}"}`);
    const streamed = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let offset = 0; offset < big.length; offset += 8192) controller.enqueue(big.slice(offset, offset + 8192));
          controller.close();
        },
      });
    const headers = { ...(bearer(sandboxKey) as Record<string, string>), "content-type": "application/json" };
    const declared = await bigRoute(new Request(`${BASE}/big`, { method: "POST", headers: { ...headers, "content-length": String(big.length) }, body: big }));
    await expectEnvelope(declared, 413, "payload_too_large");
    const chunked = await bigRoute(new Request(`${BASE}/big`, { method: "POST", headers, body: streamed(), duplex: "half" } as RequestInit));
    await expectEnvelope(chunked, 413, "payload_too_large");
    const understated = await bigRoute(
      new Request(`${BASE}/big`, { method: "POST", headers: { ...headers, "content-length": "12" }, body: streamed(), duplex: "half" } as RequestInit),
    );
    await expectEnvelope(understated, 413, "payload_too_large");
    expect(ran).toBe(0);
  });
});
