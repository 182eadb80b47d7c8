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

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };
type Failure = { reason: string; kind: OutboundFailureKind };

/** Why a guarded request got no usable answer: refused by the rules, too large, or not answered (in time). */
export type OutboundFailureKind = "refused" | "too_large" | "unanswered";

type RequestSettings = { method: string; headers: Record<string, string>; body: string | null; timeoutMs: number; maxBytes: number };

/** One request, no redirect followed: the address checked when the socket connects, the whole answer capped in time and size. */
function requestOnce(url: URL, privateHost: boolean, settings: RequestSettings): Promise<Answer | Failure> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Answer | Failure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      { method: settings.method, headers: settings.headers, lookup: privateHost ? guardedLookup("sandbox", true) : guardedLookup("live", false), agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > settings.maxBytes) {
            finish({ reason: `the answer is larger than ${settings.maxBytes} bytes`, kind: "too_large" });
            request.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => finish({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on("error", () => finish({ reason: "the connection failed while reading the answer", kind: "unanswered" }));
      },
    );
    const timer = setTimeout(() => {
      finish({ reason: `no complete answer within ${settings.timeoutMs} ms`, kind: "unanswered" });
      request.destroy();
    }, settings.timeoutMs);
    request.on("error", (error) =>
      finish(isRefusedDestination(error) ? { reason: NOT_PUBLIC, kind: "refused" } : { reason: `could not connect (${(error as NodeJS.ErrnoException).code ?? "error"})`, kind: "unanswered" }),
    );
    request.end(settings.body ?? undefined);
  });
}

/**
 * A request under the outbound rules: every URL, including each redirect's target when redirects are followed,
 * passes `checkProviderUrl` before any connection, and the socket connects only to an address checked at that
 * moment (DNS rebinding gets nothing). Redirects are followed only for GET and HEAD; a 303 turns into a GET.
 */
async function guardedRequest(raw: string, settings: RequestSettings & { followRedirects: boolean; maxRedirects: number }): Promise<(Answer & { url: string }) | Failure> {
  let current = raw;
  let method = settings.method;
  let body = settings.body;
  for (let hop = 0; ; hop++) {
    const destination = checkProviderUrl(current);
    if (!destination.ok) return { reason: `refused ${hop === 0 ? "" : "redirect "}${current}: ${destination.reason}`, kind: "refused" };
    const answer = await requestOnce(destination.url, destination.privateHost, { ...settings, method, body });
    if ("reason" in answer) return { reason: `${destination.url.href}: ${answer.reason}`, kind: answer.kind };
    const location = answer.headers.location;
    if (settings.followRedirects && answer.status >= 300 && answer.status < 400 && location && (method === "GET" || method === "HEAD")) {
      if (hop >= settings.maxRedirects) return { reason: `${destination.url.href}: more than ${settings.maxRedirects} redirects`, kind: "refused" };
      current = new URL(location, destination.url).href;
      if (answer.status === 303) [method, body] = ["GET", null];
      continue;
    }
    return { ...answer, url: destination.url.href };
  }
}

/**
 * A GET to a health system under the outbound rules, redirects followed and re-checked. Never throws; a refusal or
 * failure comes back as words for the operator that name no address.
 */
export async function guardedGet(raw: string, options: GuardedGetOptions = {}): Promise<GuardedResponse> {
  const settings = { ...DEFAULTS, ...options };
  const answer = await guardedRequest(raw, { method: "GET", headers: { accept: settings.accept }, body: null, timeoutMs: settings.timeoutMs, maxBytes: settings.maxBytes, followRedirects: true, maxRedirects: settings.maxRedirects });
  if ("reason" in answer) return { ok: false, reason: answer.reason };
  return { ok: true, status: answer.status, body: answer.body.toString("utf8"), url: answer.url };
}

/** Why `guardedFetch` got no answer; `reason` is for the operator and names no address. */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailureKind,
    readonly reason: string,
  ) {
    super(reason);
    this.name = "OutboundError";
  }
}

export type GuardedFetchOptions = { timeoutMs: number; maxBytes: number; maxRedirects?: number };

/** Headers as a plain object whatever form fetch's init gave them in. */
function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries());
}

/**
 * `fetch` for a health system's discovery, token and FHIR requests (the SMART client's live providers), under the
 * same rules as `guardedGet`: refused destinations, redirects (followed for GET when `redirect` is `follow`,
 * re-checked), the timeout and the size cap throw an `OutboundError` saying why. The body is a string or
 * URLSearchParams (what OAuth and FHIR reads send).
 */
export async function guardedFetch(url: string, init: RequestInit, options: GuardedFetchOptions): Promise<Response> {
  const method = (init.method ?? "GET").toUpperCase();
  const body = init.body == null ? null : String(init.body);
  const headers = headerRecord(init.headers);
  if (body !== null && init.body instanceof URLSearchParams && !headers["content-type"]) headers["content-type"] = "application/x-www-form-urlencoded;charset=UTF-8";
  const answer = await guardedRequest(url, { method, headers, body, timeoutMs: options.timeoutMs, maxBytes: options.maxBytes, followRedirects: (init.redirect ?? "follow") === "follow", maxRedirects: options.maxRedirects ?? DEFAULTS.maxRedirects });
  if ("reason" in answer) throw new OutboundError(answer.kind, answer.reason);
  if (init.redirect === "error" && answer.status >= 300 && answer.status < 400) throw new OutboundError("refused", `${answer.url}: redirects are not followed here`);
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, one);
  }
  return new Response([204, 205, 304].includes(answer.status) ? null : new Uint8Array(answer.body), { status: answer.status, headers: responseHeaders });
}
