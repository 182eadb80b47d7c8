import { afterEach, describe, expect, it, vi } from "vitest";
import { isClientSecretValid, isRegisteredRedirectUri, sandboxClientSecret } from "./clients";

afterEach(() => vi.unstubAllEnvs());

describe("the sandbox clients' registration", () => {
  it("registers redirect URIs on the platform's origin and on loopback http, any port, and nothing else", () => {
    vi.stubEnv("CHARTKEY_PUBLIC_URL", "https://chartkey.example");
    for (const uri of ["https://chartkey.example/connect/callback", "http://127.0.0.1:51234/cb?x=1", "http://localhost:3000/", "http://[::1]:8080/cb"]) {
      expect(isRegisteredRedirectUri(uri), uri).toBe(true);
    }
    for (const uri of ["http://chartkey.example/connect/callback", "https://chartkey.example.evil/cb", "https://127.0.0.1/cb", "https://chartkey.example/cb#x", "https://u:p@chartkey.example/cb", "javascript:alert(1)", ""]) {
      expect(isRegisteredRedirectUri(uri), uri).toBe(false);
    }
  });

  it("gives each provider its own client secret, stable for the deployment", () => {
    expect(sandboxClientSecret("riverbend-health")).toBe(sandboxClientSecret("riverbend-health"));
    expect(sandboxClientSecret("riverbend-health")).not.toBe(sandboxClientSecret("lakeshore-health"));
    expect(isClientSecretValid("riverbend-health", sandboxClientSecret("riverbend-health"))).toBe(true);
    expect(isClientSecretValid("riverbend-health", sandboxClientSecret("lakeshore-health"))).toBe(false);
    expect(isClientSecretValid("riverbend-health", "")).toBe(false);
  });
});
