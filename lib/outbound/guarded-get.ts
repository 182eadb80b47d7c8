import http from "node:http";
import https from "node:https";
import { providerPrivateHosts } from "@/lib/config";
import { guardedLookup, isRefusedDestination, NOT_PUBLIC, validateWebhookUrl } from "./destination";

export type GuardedResponse = { ok: true; status: number; body: string; url: string } | { ok: false; reason: string };

export type GuardedGetOptions = { accept?: string; timeoutMs?: number; maxBytes?: number; maxRedirects?: number };

const DEFAULTS = { accept: "application/json", timeoutMs: 10_000, maxBytes: 1_000_000, maxRedirects: 3 };

/**
 * The rules for one URL on the way to a health system: https to a public address (the live webhook rules of
 * ./destination), unless the host is one the deployment names in `CHARTKEY_PROVIDER_PRIVATE_HOSTS` (a self-hosted
 * network's EHR, or the test suite's local SMART server): those may use http and private or loopback addresses,
 * but never link-local (cloud metadata) or the other special ranges.
 */
export function checkProviderUrl(raw: string): { ok: true; url: URL; privateHost: boolean } | { ok: false; reason: string } {
  let host: string;
  try {
    host = new URL(raw).hostname.replace(/^\[|\]$/g, "").replace(/\.+$/, "");
  } catch {
    return { ok: false, reason: "not an absolute URL" };
  }
  const privateHost = providerPrivateHosts().includes(host);
  const checked = privateHost ? validateWebhookUrl(raw, "sandbox", true) : validateWebhookUrl(raw, "live", false);
  if (!checked.ok) return { ok: false, reason: checked.reason === "live webhooks must use https" ? "health systems must use https" : checked.reason };
  return { ok: true, url: checked.url, privateHost };
}

/** One GET, no redirect followed: the address checked when the socket connects, the whole answer capped in time and size. */
function getOnce(url: URL, privateHost: boolean, options: Required<GuardedGetOptions>): Promise<{ status: number; location: string | null; body: string } | { reason: string }> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: { status: number; location: string | null; body: string } | { reason: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      { method: "GET", headers: { accept: options.accept }, lookup: privateHost ? guardedLookup("sandbox", true) : guardedLookup("live", false), agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            finish({ reason: `the answer is larger than ${options.maxBytes} bytes` });
            request.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => finish({ status: response.statusCode ?? 0, location: response.headers.location ?? null, body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", () => finish({ reason: "the connection failed while reading the answer" }));
      },
    );
    const timer = setTimeout(() => {
      finish({ reason: `no complete answer within ${options.timeoutMs} ms` });
      request.destroy();
    }, options.timeoutMs);
    request.on("error", (error) => finish({ reason: isRefusedDestination(error) ? NOT_PUBLIC : `could not connect (${(error as NodeJS.ErrnoException).code ?? "error"})` }));
    request.end();
  });
}

/**
 * A GET to a health system under the outbound rules: every URL, including each redirect's target, passes
 * `checkProviderUrl` before any connection, and the socket connects only to an address checked at that moment (DNS
 * rebinding gets nothing). Never throws; a refusal or failure comes back as words for the operator that name no
 * address.
 */
export async function guardedGet(raw: string, options: GuardedGetOptions = {}): Promise<GuardedResponse> {
  const settings = { ...DEFAULTS, ...options };
  let current = raw;
  for (let hop = 0; ; hop++) {
    const destination = checkProviderUrl(current);
    if (!destination.ok) return { ok: false, reason: `refused ${hop === 0 ? "" : "redirect "}${current}: ${destination.reason}` };
    const answer = await getOnce(destination.url, destination.privateHost, settings);
    if ("reason" in answer) return { ok: false, reason: `${destination.url.href}: ${answer.reason}` };
    if (answer.status >= 300 && answer.status < 400 && answer.location) {
      if (hop >= settings.maxRedirects) return { ok: false, reason: `${destination.url.href}: more than ${settings.maxRedirects} redirects` };
      current = new URL(answer.location, destination.url).href;
      continue;
    }
    return { ok: true, status: answer.status, body: answer.body, url: destination.url.href };
  }
}
