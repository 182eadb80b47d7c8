import http from "node:http";
import https from "node:https";
import { privateWebhooksAllowed } from "@/lib/config";
import { guardedLookup, isRefusedDestination, validateWebhookUrl, type WebhookEnvironment } from "@/lib/outbound";
import { processState } from "@/lib/process-state";

// Keep-alive agents, one per protocol, environment and address policy, each connecting through the guarded lookup:
// the address check runs on every new connection (a name that resolves elsewhere later is checked again then), and
// a reused socket was checked when it was opened under the same policy; idle sockets close after 15 seconds.
const agents = processState("webhooks.agents", () => new Map<string, http.Agent>());
/** Connections to one receiver (host and port) at most; the worker admits as many attempts to it at once. */
export const ENDPOINT_CONNECTIONS = 64;
function agentFor(protocol: string, environment: WebhookEnvironment, allowPrivate: boolean): http.Agent {
  const key = `${protocol}${environment}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, keepAliveMsecs: 1000, timeout: 15_000, maxSockets: ENDPOINT_CONNECTIONS, lookup: guardedLookup(environment, allowPrivate) };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

export type PostResult = { status: number | null; excerpt: string | null; error: string | null; latencyMs: number };

const EXCERPT_CHARS = 500;

/** An exchange that produced no HTTP answer and whose cause is none of those below. */
export const NO_ANSWER = "could not deliver: no HTTP answer from the endpoint";

const TLS_CODES = new Set(["EPROTO", "CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID", "DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "HOSTNAME_MISMATCH"]);

/**
 * Why an exchange produced no HTTP answer, in words a developer can act on: a name that does not resolve, a refused
 * connection, a timeout, a TLS failure, or a connection closed before the answer. Telling them apart shows nothing a
 * scan from anywhere else would not: addresses that are not public are refused before any connection is made
 * (unless the deployment opted in for a developer's own machine).
 */
export function noAnswerCause(error: NodeJS.ErrnoException | "timeout", timeoutMs = 0): string {
  if (error === "timeout") return `could not deliver: no answer within ${Math.round(timeoutMs / 100) / 10} s (timeout)`;
  const code = error.code ?? "";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME" || code === "EAI_NODATA") return "could not deliver: the endpoint's host name does not resolve (DNS)";
  if (code === "ECONNREFUSED") return "could not deliver: the connection was refused (nothing listens at that address and port)";
  if (code === "ETIMEDOUT" || code === "ECONNABORTED") return "could not deliver: the connection timed out";
  if (TLS_CODES.has(code) || code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_") || code.startsWith("CERT_")) return `could not deliver: the TLS handshake failed (${code})`;
  if (code === "ECONNRESET" || code === "EPIPE" || error.message === "socket hang up") return "could not deliver: the endpoint closed the connection before answering";
  return code ? `${NO_ANSWER} (${code})` : NO_ANSWER;
}

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
  const allowPrivate = privateWebhooksAllowed();
  const checked = validateWebhookUrl(rawUrl, environment, allowPrivate);
  if (!checked.ok) return Promise.resolve({ status: null, excerpt: null, error: `refused: ${checked.reason}`, latencyMs: 0 });
  const url = checked.url;
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let current: http.ClientRequest | undefined;
    const finish = (result: Omit<PostResult, "latencyMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: elapsed() });
    };
    const timer = setTimeout(() => {
      finish({ status: null, excerpt: null, error: noAnswerCause("timeout", timeoutMs) });
      current?.destroy();
    }, timeoutMs);
    const send = (retried: boolean) => {
      const request = client.request(
        url,
        {
          method: "POST",
          headers: { ...headers, "content-length": Buffer.byteLength(body).toString() },
          lookup: guardedLookup(environment, allowPrivate),
          // The resend takes a connection of its own: the pool's other idle ones may have been closed the same way.
          agent: retried ? false : agentFor(url.protocol, environment, allowPrivate),
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
          response.on("error", (error: NodeJS.ErrnoException) => finish({ status: response.statusCode ?? null, excerpt: null, error: noAnswerCause(error) }));
        },
      );
      current = request;
      request.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the receiver closed while idle fails as soon as it is reused, before any answer:
        // the request is sent once more on a new connection (and its address checked again), within the same
        // timeout. The receiver may have seen it; receivers dedupe on webhook-id, as for any retry.
        if (!retried && !settled && request.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE")) return send(true);
        finish({ status: null, excerpt: null, error: isRefusedDestination(error) ? error.message : noAnswerCause(error) });
      });
      request.end(body);
    };
    send(false);
  });
}
