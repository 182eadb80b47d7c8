import autocannon from "autocannon";
import { treeCpuSeconds } from "./process-cpu";

export type LoadSettings = { connections: number; duration: number; warmup: number };

/** What one measurement found: throughput, latency percentiles (ms) and anything that was not a 2xx answer. */
export type Measurement = { requestsPerSecond: number; p50: number; p99: number; requests: number; failures: number; cpu?: RequestCpu };

/** CPU milliseconds per request over a measurement: the server's process tree, PostgreSQL's, and the load client's. */
export type RequestCpu = { server: number; database: number; client: number };

/** The processes a measurement reads CPU time from: the server under test and PostgreSQL's postmaster. */
export type CpuProbe = { serverPid: number; databasePid: number };

/**
 * Drives `baseUrl` with autocannon: `connections` connections sending GETs back to back, each request taking the
 * next of `paths` in turn (so the load spreads across subjects), for `warmup` seconds that are discarded and then
 * `duration` seconds that are measured.
 */
export async function measure(baseUrl: string, paths: readonly string[], headers: Record<string, string>, settings: LoadSettings, probe?: CpuProbe): Promise<Measurement> {
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
  const before = probe && { server: treeCpuSeconds(probe.serverPid), database: treeCpuSeconds(probe.databasePid), client: process.cpuUsage() };
  const result = await run(settings.duration);
  const cpu = probe && before && cpuPerRequest(probe, before, result.requests.total);
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    ...(cpu ? { cpu } : {}),
  };
}

// The client is this process: autocannon runs in it, and nothing else does while it measures.
function cpuPerRequest(probe: CpuProbe, before: { server: number; database: number; client: NodeJS.CpuUsage }, requests: number): RequestCpu | undefined {
  if (requests === 0) return undefined;
  const client = process.cpuUsage(before.client);
  const perRequest = (seconds: number) => (seconds * 1000) / requests;
  return {
    server: perRequest(treeCpuSeconds(probe.serverPid) - before.server),
    database: perRequest(treeCpuSeconds(probe.databasePid) - before.database),
    client: perRequest((client.user + client.system) / 1e6),
  };
}
