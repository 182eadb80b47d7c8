import { describe, expect, it } from "vitest";
import { DeferredRequest, fetchRequest } from "./request-head";

describe("a deferred request", () => {
  it("is read for its method, URL and headers without its Request, which is made once, when first asked for", () => {
    let made = 0;
    const url = "http://localhost:3000/api/v1/app";
    const deferred = new DeferredRequest("GET", url, { get: (name) => (name === "authorization" ? "Bearer x" : null) }, () => {
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
});
