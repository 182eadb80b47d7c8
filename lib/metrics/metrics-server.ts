import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { metrics } from "./metrics";
import { collectScrapeGauges } from "./scrape";

/** The Prometheus text of this process's metrics, the scrape-time gauges read first. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  await collectScrapeGauges();
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function bearerMatches(request: IncomingMessage, token: string): boolean {
  const header = request.headers.authorization ?? "";
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type MetricsServerOptions = { port: number; host?: string; token?: string };

/**
 * The metrics endpoint, `GET /metrics`, on its own port, apart from the platform's: nothing of it is reachable
 * through the public port. With a token, a scrape without `Authorization: Bearer <token>` is refused 401.
 */
export async function startMetricsServer({ port, host = "127.0.0.1", token }: MetricsServerOptions): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (path !== "/metrics") return void response.writeHead(404, { "content-type": "text/plain" }).end("Not found: the metrics are at /metrics.\n");
    if (request.method !== "GET" && request.method !== "HEAD") return void response.writeHead(405, { allow: "GET, HEAD" }).end();
    if (token && !bearerMatches(request, token)) {
      return void response.writeHead(401, { "content-type": "text/plain", "www-authenticate": 'Bearer realm="chartkey-metrics"' }).end("A bearer token is required.\n");
    }
    metricsText().then(
      ({ contentType, body }) => response.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(request.method === "HEAD" ? undefined : body),
      () => response.writeHead(500, { "content-type": "text/plain" }).end("The metrics could not be collected.\n"),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}

/**
 * The metrics endpoint the deployment asks for: `CHARTKEY_METRICS_PORT` (off when unset) on
 * `CHARTKEY_METRICS_HOST` (127.0.0.1 unless set, e.g. 0.0.0.0 for a scraper in another container), with
 * `CHARTKEY_METRICS_TOKEN` required as a bearer token when set. Undefined when metrics are off.
 */
export async function startConfiguredMetricsServer(env: Record<string, string | undefined> = process.env): Promise<Server | undefined> {
  const raw = env.CHARTKEY_METRICS_PORT;
  if (raw === undefined || raw === "") return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`CHARTKEY_METRICS_PORT must be a port number (got ${raw})`);
  const host = env.CHARTKEY_METRICS_HOST || "127.0.0.1";
  const token = env.CHARTKEY_METRICS_TOKEN || undefined;
  if (!token && host !== "127.0.0.1" && host !== "::1" && host !== "localhost") {
    throw new Error(`CHARTKEY_METRICS_HOST=${host} exposes the metrics beyond this machine: set CHARTKEY_METRICS_TOKEN as well`);
  }
  return startMetricsServer({ port, host, token });
}
