import autocannon from "autocannon";

export type LoadSettings = { connections: number; duration: number; warmup: number };

/** What one measurement found: throughput, latency percentiles (ms) and anything that was not a 2xx answer. */
export type Measurement = { requestsPerSecond: number; p50: number; p99: number; requests: number; failures: number };

/**
 * Drives `baseUrl` with autocannon: `connections` connections sending GETs back to back, each request taking the
 * next of `paths` in turn (so the load spreads across subjects), for `warmup` seconds that are discarded and then
 * `duration` seconds that are measured.
 */
export async function measure(baseUrl: string, paths: readonly string[], headers: Record<string, string>, settings: LoadSettings): Promise<Measurement> {
  if (paths.length === 0) throw new Error("nothing to request");
  let next = 0;
  const run = (duration: number) =>
    autocannon({
      url: baseUrl,
      connections: settings.connections,
      duration,
      timeout: 30,
      headers,
      requests: [{ method: "GET", setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }],
    });
  if (settings.warmup > 0) await run(settings.warmup);
  const result = await run(settings.duration);
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
