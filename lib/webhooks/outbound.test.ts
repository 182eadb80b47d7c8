import { describe, expect, it } from "vitest";
import { addressAllowed, guardedLookup, validateWebhookUrl } from "./outbound";
import { backoffMs, deliveryPolicy, MAX_ATTEMPTS } from "./policy";

describe("webhook destinations", () => {
  it("live allows only public unicast addresses; sandbox adds loopback", () => {
    for (const address of ["93.184.215.14", "2606:2800:220:1::1"]) {
      expect(addressAllowed(address, "live")).toBe(true);
      expect(addressAllowed(address, "sandbox")).toBe(true);
    }
    for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      expect(addressAllowed(address, "live")).toBe(false);
      expect(addressAllowed(address, "sandbox")).toBe(true);
    }
    for (const address of ["10.0.0.5", "172.16.3.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "fc00::1", "fe80::1", "::ffff:10.1.2.3", "not-an-ip"]) {
      expect(addressAllowed(address, "live")).toBe(false);
      expect(addressAllowed(address, "sandbox")).toBe(false);
    }
  });

  it("validates URLs when they are saved: https for live, http too for sandbox, no credentials, no refused literals", () => {
    expect(validateWebhookUrl("https://hooks.example.com/chartkey", "live").ok).toBe(true);
    expect(validateWebhookUrl("http://hooks.example.com/chartkey", "live")).toEqual({ ok: false, reason: "live webhooks must use https" });
    expect(validateWebhookUrl("http://hooks.example.com/chartkey", "sandbox").ok).toBe(true);
    expect(validateWebhookUrl("http://127.0.0.1:4000/hook", "sandbox").ok).toBe(true);
    expect(validateWebhookUrl("http://localhost:4000/hook", "sandbox").ok).toBe(true);
    expect(validateWebhookUrl("https://127.0.0.1/hook", "live").ok).toBe(false);
    expect(validateWebhookUrl("https://[::1]/hook", "live").ok).toBe(false);
    expect(validateWebhookUrl("https://localhost/hook", "live").ok).toBe(false);
    expect(validateWebhookUrl("https://10.0.0.1/hook", "sandbox").ok).toBe(false);
    expect(validateWebhookUrl("https://user:pw@hooks.example.com/", "live").ok).toBe(false);
    expect(validateWebhookUrl("ftp://hooks.example.com/", "sandbox").ok).toBe(false);
    expect(validateWebhookUrl("/relative", "sandbox").ok).toBe(false);
  });

  it("checks the resolved address at connect time: localhost resolves to loopback, refused for live", async () => {
    const resolve = (environment: "live" | "sandbox") =>
      new Promise<string>((done) => guardedLookup(environment)("localhost", { family: 4 }, (error, address) => done(error ? `refused: ${error.message}` : String(address))));
    expect(await resolve("live")).toMatch(/^refused: address 127\.0\.0\.1 of localhost is not allowed/);
    expect(await resolve("sandbox")).toBe("127.0.0.1");
  });
});

describe("the retry schedule", () => {
  it("makes 8 attempts whose waits grow fourfold from 16 seconds, about 24 hours in all, with ±10% jitter", () => {
    expect(MAX_ATTEMPTS).toBe(8);
    const waits = [1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffMs(attempt, 1, () => 0.5));
    expect(waits).toEqual([16_000, 64_000, 256_000, 1_024_000, 4_096_000, 16_384_000, 65_536_000]);
    const total = waits.reduce((sum, wait) => sum + wait, 0) / 3_600_000;
    expect(total).toBeGreaterThan(23);
    expect(total).toBeLessThan(25);
    expect(backoffMs(1, 1, () => 0)).toBe(14_400);
    expect(backoffMs(1, 1, () => 1)).toBe(17_600);
    expect(deliveryPolicy().timeoutMs).toBe(10_000);
  });
});
