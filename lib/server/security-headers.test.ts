import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, documentHeaders, newNonce, transportHeaders } from "./security-headers";

function directives(policy: string): Map<string, string> {
  return new Map(policy.split("; ").map((directive) => [directive.split(" ")[0]!, directive.split(" ").slice(1).join(" ")]));
}

describe("contentSecurityPolicy", () => {
  it("allows scripts only by the nonce (and what they load), and locks down framing, plugins, base and forms", () => {
    const policy = directives(contentSecurityPolicy("abc123==", false));
    expect(policy.get("script-src")).toBe("'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(policy.get("script-src")).not.toContain("unsafe");
    expect(policy.get("style-src")).toBe("'self' 'nonce-abc123=='");
    expect(policy.get("object-src")).toBe("'none'");
    expect(policy.get("base-uri")).toBe("'self'");
    expect(policy.get("frame-ancestors")).toBe("'none'");
    expect(policy.get("form-action")).toBe("'self'");
    expect(policy.has("upgrade-insecure-requests")).toBe(false);
  });

  it("allows inline styles (never inline scripts) on the dashboard's pages and the API reference only", () => {
    for (const path of ["/dashboard", "/dashboard/app_1/keys", "/sign-in", "/sign-up", "/invitations/abc", "/docs", "/docs/"]) {
      const policy = directives(contentSecurityPolicy("abc123==", false, path));
      expect(policy.get("style-src"), path).toBe("'self' 'unsafe-inline'");
      expect(policy.get("script-src"), path).toBe("'self' 'nonce-abc123==' 'strict-dynamic'");
    }
    for (const path of ["/", "/connect/tok/start", "/consent/tok", "/docs/guides/quickstart", "/docsx", "/dashboards", "/sign-in-elsewhere"]) {
      expect(directives(contentSecurityPolicy("abc123==", false, path)).get("style-src"), path).toBe("'self' 'nonce-abc123=='");
    }
  });

  it("under npm run dev only, adds eval and inline styles for Next's development runtime, keeping the nonce and the rest", () => {
    const production = directives(contentSecurityPolicy("abc123==", false, "/", false));
    const development = directives(contentSecurityPolicy("abc123==", false, "/", true));
    expect(development.get("script-src")).toBe("'self' 'nonce-abc123==' 'strict-dynamic' 'unsafe-eval'");
    expect(development.get("style-src")).toBe("'self' 'unsafe-inline'");
    for (const [name, value] of production) if (name !== "script-src" && name !== "style-src") expect(development.get(name), name).toBe(value);
    // The default follows NODE_ENV, which is "test" here and "production" under npm start.
    expect(contentSecurityPolicy("abc123==", false)).toBe(contentSecurityPolicy("abc123==", false, "/", false));
  });

  it("upgrades insecure requests only for a client that came over https", () => {
    expect(directives(contentSecurityPolicy("n", true)).has("upgrade-insecure-requests")).toBe(true);
  });
});

describe("newNonce", () => {
  it("is fresh per call and in the form Next.js reads from the policy", () => {
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/_-]{22}={0,2}$/);
  });
});

describe("response headers", () => {
  it("sends nosniff always and HSTS only over https", () => {
    expect(transportHeaders(false)).toEqual({ "X-Content-Type-Options": "nosniff" });
    expect(transportHeaders(true)["Strict-Transport-Security"]).toMatch(/^max-age=\d{8,}/);
  });

  it("denies framing and trims the referrer for documents", () => {
    expect(documentHeaders("policy")).toEqual({
      "Content-Security-Policy": "policy",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "X-Frame-Options": "DENY",
    });
  });
});
