import dns from "node:dns";
import os from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addressAllowed, checkWebhookDestination, guardedLookup, NOT_PUBLIC, validateWebhookUrl } from "./destination";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

// Every spelling of this machine that the hostile probe of issue 18 saved, and then some.
const LOOPBACK_URLS = [
  "http://127.0.0.1:5432/",
  "http://127.0.0.1./",
  "http://[::1]:3000/",
  "http://localhost:3000/",
  "https://localhost.:5103/",
  "http://LOCALHOST/",
  "http://ｌｏｃａｌｈｏｓｔ/",
  "http://api.localhost/",
  "http://127.1/",
  "http://2130706433/",
  "http://0x7f000001/",
  "http://017700000001/",
  "http://0x7f.1/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[::127.0.0.1]/",
];

// Other addresses no sign-up may reach, opted in or not: cloud metadata, CGNAT, reserved, NAT64, 6to4, Teredo, ...
const NEVER_URLS = [
  "http://169.254.169.254/latest/meta-data/",
  "http://[fe80::1]/",
  "http://100.64.0.1/",
  "http://0.0.0.0:5432/",
  "http://0/",
  "http://[::]/",
  "http://224.0.0.1/",
  "http://255.255.255.255/",
  "http://192.0.2.1/",
  "http://198.18.0.1/",
  "http://240.0.0.1/",
  "http://[64:ff9b::7f00:1]/",
  "http://[2002:7f00:1::1]/",
  "http://[2001::1]/",
  "http://[2001:db8::1]/",
  "http://[::ffff:169.254.169.254]/",
  "http://[fec0::1]/",
];

const PRIVATE_URLS = ["http://10.0.0.5/", "http://172.16.3.4/", "http://192.168.1.1/", "http://[fc00::1]/", "http://[fd12:3456::1]/", "http://[::ffff:10.1.2.3]/"];

describe("webhook destinations", () => {
  it("refuses every spelling of loopback by default, in the sandbox as for live", () => {
    for (const url of LOOPBACK_URLS) {
      expect(validateWebhookUrl(url, "sandbox"), url).toEqual({ ok: false, reason: NOT_PUBLIC });
      expect(validateWebhookUrl(url.replace(/^http:/, "https:"), "live"), url).toEqual({ ok: false, reason: NOT_PUBLIC });
    }
  });

  it("refuses private, link-local, metadata, CGNAT, reserved, NAT64 and tunnelled addresses by default", () => {
    for (const url of [...NEVER_URLS, ...PRIVATE_URLS]) {
      expect(validateWebhookUrl(url, "sandbox"), url).toEqual({ ok: false, reason: NOT_PUBLIC });
    }
  });

  it("the deployment's opt-in lets sandbox webhooks reach loopback and private networks, never metadata, reserved or live", () => {
    vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
    for (const url of [...LOOPBACK_URLS, ...PRIVATE_URLS]) expect(validateWebhookUrl(url, "sandbox").ok, url).toBe(true);
    for (const url of NEVER_URLS) expect(validateWebhookUrl(url, "sandbox"), url).toEqual({ ok: false, reason: NOT_PUBLIC });
    for (const url of [...LOOPBACK_URLS, ...PRIVATE_URLS]) expect(validateWebhookUrl(url.replace(/^http:/, "https:"), "live").ok, url).toBe(false);
    // Only on, 1 and true turn it on: a typo fails closed.
    vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "yes please");
    expect(validateWebhookUrl("http://127.0.0.1:4000/", "sandbox").ok).toBe(false);
  });

  it("allows public unicast addresses, but never this machine's own interface addresses", () => {
    for (const address of ["93.184.215.14", "2606:2800:220:1::1", "::ffff:93.184.215.14"]) {
      expect(addressAllowed(address, "live", false)).toBe(true);
      expect(addressAllowed(address, "sandbox", false)).toBe(true);
    }
    const own = Object.values(os.networkInterfaces())
      .flat()
      .map((entry) => entry?.address)
      .filter((address): address is string => !!address);
    for (const address of own) expect(addressAllowed(address, "sandbox", false), address).toBe(false);
    expect(addressAllowed("not-an-ip", "sandbox", true)).toBe(false);
  });

  it("validates the rest of the URL: https for live, http too for sandbox, no credentials, absolute", () => {
    expect(validateWebhookUrl("https://hooks.example.com/chartkey", "live").ok).toBe(true);
    expect(validateWebhookUrl("http://hooks.example.com/chartkey", "live")).toEqual({ ok: false, reason: "live webhooks must use https" });
    expect(validateWebhookUrl("http://hooks.example.com/chartkey", "sandbox").ok).toBe(true);
    expect(validateWebhookUrl("https://user:pw@hooks.example.com/", "live").ok).toBe(false);
    expect(validateWebhookUrl("ftp://hooks.example.com/", "sandbox").ok).toBe(false);
    expect(validateWebhookUrl("/relative", "sandbox").ok).toBe(false);
  });

  it("checks the resolved address at connect time, naming no address in the refusal", async () => {
    const resolve = (allowPrivate: boolean, environment: "live" | "sandbox" = "sandbox") =>
      new Promise<string>((done) => guardedLookup(environment, allowPrivate)("localhost", { family: 4 }, (error, address) => done(error ? error.message : String(address))));
    expect(await resolve(false)).toBe(`refused: ${NOT_PUBLIC}`);
    expect(await resolve(true, "live")).toBe(`refused: ${NOT_PUBLIC}`);
    expect(await resolve(true)).toBe("127.0.0.1");
  });

  it("resolves the name when a URL is saved: a name for a private address is refused, an unresolvable one is left to connect time", async () => {
    // The resolver answers as a hostile zone would: a public-looking name for the host's loopback.
    vi.spyOn(dns.promises, "lookup").mockImplementation((async (hostname: string) => {
      if (hostname === "hooks.rebind.example") return [{ address: "93.184.215.14", family: 4 }, { address: "127.0.0.1", family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    }) as unknown as typeof dns.promises.lookup);
    expect(await checkWebhookDestination("https://hooks.rebind.example:5103/", "sandbox")).toEqual({ ok: false, reason: NOT_PUBLIC });
    expect(await checkWebhookDestination("https://hooks.rebind.example./", "live")).toEqual({ ok: false, reason: NOT_PUBLIC });
    expect((await checkWebhookDestination("https://hooks.invalid/x", "sandbox")).ok).toBe(true);
    vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
    expect((await checkWebhookDestination("https://hooks.rebind.example:5103/", "sandbox")).ok).toBe(true);
    expect(await checkWebhookDestination("https://hooks.rebind.example/", "live")).toEqual({ ok: false, reason: NOT_PUBLIC });
  });
});
