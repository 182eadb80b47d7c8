import { describe, expect, it } from "vitest";
import { canonicalPath, hasMalformedEscape, splitTarget } from "./request-target";

describe("splitTarget", () => {
  it("splits origin-form and absolute-form targets into path and query", () => {
    expect(splitTarget("/api/v1/app?x=1&y=%20")).toEqual({ pathname: "/api/v1/app", search: "?x=1&y=%20" });
    expect(splitTarget("/demo/v1")).toEqual({ pathname: "/demo/v1", search: "" });
    expect(splitTarget("http://example.test:8080/api/v1//app?q")).toEqual({ pathname: "/api/v1//app", search: "?q" });
    expect(splitTarget("https://example.test")).toEqual({ pathname: "/", search: "" });
  });
});

describe("canonicalPath", () => {
  it("collapses repeated slashes and drops a trailing slash", () => {
    expect(canonicalPath("/api/v1//app")).toBe("/api/v1/app");
    expect(canonicalPath("//api///v1/")).toBe("/api/v1");
    expect(canonicalPath("/demo/v1/")).toBe("/demo/v1");
    expect(canonicalPath("/")).toBe("/");
    expect(canonicalPath("//")).toBe("/");
  });

  it("leaves escapes of reserved and other characters as written", () => {
    expect(canonicalPath("/demo/v1/patients/a%2Fb/")).toBe("/demo/v1/patients/a%2Fb");
    expect(canonicalPath("/api/v1/users/%00/records")).toBe("/api/v1/users/%00/records");
    expect(canonicalPath("/api/v1/%zz")).toBe("/api/v1/%zz");
  });

  it("reads the path as URL parsing does: unreserved escapes decoded, backslashes as slashes, dot segments resolved", () => {
    expect(canonicalPath("/api/%76%31/app")).toBe("/api/v1/app");
    expect(canonicalPath("/%61%70%69/v1/%7Eme%2d%5F%2E")).toBe("/api/v1/~me-_.");
    expect(canonicalPath("/api/v1\\app")).toBe("/api/v1/app");
    expect(canonicalPath("\\api\\v1\\")).toBe("/api/v1");
    expect(canonicalPath("/api/v1/../../dashboard")).toBe("/dashboard");
    expect(canonicalPath("/api/v1/%2e%2E/%2E./dashboard")).toBe("/dashboard");
    expect(canonicalPath("/demo/v1/./x/../health")).toBe("/demo/v1/health");
    expect(canonicalPath("*")).toBe("*");
  });
});

describe("hasMalformedEscape", () => {
  it("finds escapes that do not decode", () => {
    for (const path of ["/api/v1/%zz", "/api/v1/%", "/demo/v1/patients/%FF", "/x/%E0%A4%A"]) expect(hasMalformedEscape(path), path).toBe(true);
  });

  it("accepts well-formed escapes, including multi-byte UTF-8", () => {
    for (const path of ["/api/v1/app", "/demo/v1/patients/%20a", "/x/%E2%9C%93"]) expect(hasMalformedEscape(path), path).toBe(false);
  });
});
