import { describe, expect, it } from "vitest";
import { requestIsHttps } from "./request-scheme";

describe("requestIsHttps", () => {
  it("is true for a TLS socket, whatever the headers say", () => {
    expect(requestIsHttps(true, undefined, 0)).toBe(true);
    expect(requestIsHttps(true, "http", 1)).toBe(true);
  });

  it("ignores X-Forwarded-Proto when no proxy is trusted: any client can write it", () => {
    expect(requestIsHttps(false, "https", 0)).toBe(false);
  });

  it("reads the entry the outermost trusted proxy wrote", () => {
    expect(requestIsHttps(false, "https", 1)).toBe(true);
    expect(requestIsHttps(false, "http", 1)).toBe(false);
    // The client wrote "https"; the one trusted proxy appended what it really saw.
    expect(requestIsHttps(false, "https, http", 1)).toBe(false);
    // Two trusted proxies: the outer one saw https, the inner one http from the outer.
    expect(requestIsHttps(false, "https, http", 2)).toBe(true);
    // Proxies that overwrite leave one entry, theirs.
    expect(requestIsHttps(false, "HTTPS", 2)).toBe(true);
  });
});
