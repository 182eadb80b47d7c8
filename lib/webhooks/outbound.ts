import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

export type WebhookEnvironment = "sandbox" | "live";

/**
 * Where a webhook may go. Live: only public unicast addresses (ipaddr.js `unicast` range, which excludes
 * loopback, private, link-local, CGNAT, multicast, reserved, ...). Sandbox: the same plus loopback, so a
 * developer can receive on localhost.
 */
export function addressAllowed(address: string, environment: WebhookEnvironment): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range(); // process() unwraps IPv4-mapped IPv6 (::ffff:10.0.0.1)
  return range === "unicast" || (environment === "sandbox" && range === "loopback");
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * The checks that need no DNS: an absolute http(s) URL without credentials, `https:` for live, and an IP-literal
 * host that is allowed. Used when a URL is saved and again before every attempt; the resolved address is checked
 * at connect time by `guardedLookup`.
 */
export function validateWebhookUrl(raw: string, environment: WebhookEnvironment): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not an absolute URL" };
  }
  if (url.protocol !== "https:" && !(environment === "sandbox" && url.protocol === "http:")) {
    return { ok: false, reason: environment === "live" ? "live webhooks must use https" : "webhooks must use http or https" };
  }
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL are not allowed" };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host) && !addressAllowed(host, environment)) return { ok: false, reason: `address ${host} is not allowed` };
  if (environment === "live" && (host === "localhost" || host.endsWith(".localhost"))) return { ok: false, reason: "localhost is not allowed" };
  return { ok: true, url };
}

/**
 * A `lookup` for the socket: resolves the name and refuses the connection unless every address is allowed. It
 * runs when the connection is made, so a name that resolved to a public address when the URL was saved and to a
 * private one now (DNS rebinding) is refused, and the socket connects only to an address that was checked.
 */
export function guardedLookup(environment: WebhookEnvironment): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", undefined);
      const refused = addresses.find((entry) => !addressAllowed(entry.address, environment));
      if (refused || addresses.length === 0) {
        const refusal = Object.assign(new Error(`address ${refused?.address ?? "none"} of ${hostname} is not allowed`), { code: "EADDRREFUSED" });
        return callback(refusal, "", undefined);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

// Keep-alive agents, one per protocol and environment, each connecting through the guarded lookup. A reused
// socket was checked when it was opened; sockets idle out after a few seconds.
const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, environment: WebhookEnvironment): http.Agent {
  const key = `${protocol}${environment}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, keepAliveMsecs: 1000, timeout: 15_000, lookup: guardedLookup(environment) };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

export type PostResult = { status: number | null; excerpt: string | null; error: string | null; latencyMs: number };

const EXCERPT_CHARS = 500;

/**
 * One POST with node:http(s) (chosen over fetch/undici because `request` takes a per-request `lookup`, which is
 * where the address check must sit, and it never follows redirects: a 3xx is just an answer). The whole exchange
 * must finish within `timeoutMs`; the answer is read up to a few KB for the excerpt. Never throws.
 */
export function postWebhook(
  rawUrl: string,
  environment: WebhookEnvironment,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const checked = validateWebhookUrl(rawUrl, environment);
  if (!checked.ok) return Promise.resolve({ status: null, excerpt: null, error: `refused: ${checked.reason}`, latencyMs: 0 });
  const url = checked.url;
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, "latencyMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: elapsed() });
    };
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(body).toString() },
        lookup: guardedLookup(environment),
        agent: agentFor(url.protocol, environment),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < 4096) chunks.push(chunk);
          size += chunk.length;
        });
        response.on("end", () => {
          const status = response.statusCode ?? null;
          const excerpt = Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_CHARS);
          const ok = status !== null && status >= 200 && status < 300;
          finish({ status, excerpt, error: ok ? null : status !== null && status >= 300 && status < 400 ? "redirect not followed" : `HTTP ${status}` });
        });
        response.on("error", (error) => finish({ status: response.statusCode ?? null, excerpt: null, error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, excerpt: null, error: `timed out after ${timeoutMs} ms` });
      request.destroy();
    }, timeoutMs);
    request.on("error", (error) => finish({ status: null, excerpt: null, error: error.message }));
    request.end(body);
  });
}
