import { describe, expect, it } from "vitest";
import { DeferredRequest, fetchRequest, requestUrl } from "./request-head";

describe("a deferred request", () => {
  it("is read for its method, URL and headers without its Request, which is made once, when first asked for", () => {
    let made = 0;
    const url = "http://localhost:3000/api/v1/app";
    const deferred = new DeferredRequest("GET", new URL(url), { get: (name) => (name === "authorization" ? "Bearer x" : null) }, () => {
      made += 1;
      return new Request(url, { headers: { authorization: "Bearer x" } });
    });
    expect([deferred.method, deferred.url, deferred.headers.get("authorization"), deferred.headers.get("accept")]).toEqual(["GET", url, "Bearer x", null]);
    expect(made).toBe(0);
    const request = fetchRequest(deferred);
    expect(request.headers.get("authorization")).toBe("Bearer x");
    expect(deferred.request).toBe(request);
    expect(made).toBe(1);
  });

  it("leaves a fetch Request as it is", () => {
    const request = new Request("http://localhost/x");
    expect(fetchRequest(request)).toBe(request);
  });

  it("is read for its URL as parsed when it was made; a fetch Request's URL is parsed from it", () => {
    const parsed = new URL("http://localhost:3000/api/v1/users/u_1/records/labs?limit=50");
    const deferred = new DeferredRequest("GET", parsed, { get: () => null }, () => new Request(parsed));
    expect(deferred.url).toBe("http://localhost:3000/api/v1/users/u_1/records/labs?limit=50");
    expect(requestUrl(deferred)).toBe(parsed);
    const request = new Request("http://localhost/api/v1/app?x=1");
    const first = requestUrl(request);
    expect([first.pathname, first.search]).toEqual(["/api/v1/app", "?x=1"]);
  });
});
