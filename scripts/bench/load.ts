import autocannon, { type RawResult } from "autocannon";
import { loadAverage } from "./machine";
import { treeCpuSeconds } from "./process-cpu";

/** How a load is run; `rewarm` is the seconds discarded before a pair side's second half (see rewarmSeconds). */
export type LoadSettings = { connections: number; duration: number; warmup: number; rewarm?: number };

/** What one measurement found: throughput, latency percentiles (ms) and anything that was not a 2xx answer. */
export type Measurement = { requestsPerSecond: number; p50: number; p99: number; requests: number; failures: number; cpu?: RequestCpu };

/** CPU milliseconds per request over a measurement: the server's process tree, PostgreSQL's, and the load client's. */
export type RequestCpu = { server: number; database: number; client: number };

/** The processes a measurement reads CPU time from: the server under test and PostgreSQL's postmaster. */
export type CpuProbe = { serverPid: number; databasePid: number };

/** A server under load: where it listens, and (to read what each request costs) its processes. */
export type LoadTarget = { url: string; probe?: CpuProbe };

/**
 * Seconds of load discarded before a side's second half of a pair (see measurePair): its code is compiled, only its
 * connections are new, so a second at most, and none when the settings say so (a quick run: both sides alike).
 */
export function rewarmSeconds(settings: Pick<LoadSettings, "warmup" | "rewarm">): number {
  return settings.rewarm ?? Math.min(settings.warmup, 1);
}

/** One stretch of load on one server: autocannon's unaggregated result, and the CPU seconds spent meanwhile. */
type Segment = { raw: RawResult; cpuSeconds?: { server: number; database: number; client: number } };

/** Each side's measurement, and the 1-minute load average as its first half began. */
export type MeasuredPair = { measurements: [Measurement, Measurement]; loads: [number, number] };

/**
 * Drives `target` with autocannon: `connections` connections sending GETs back to back, each request taking the
 * next of `paths` in turn (so the load spreads across subjects), for `warmup` seconds that are discarded and then
 * `duration` seconds that are measured.
 */
export async function measure(target: LoadTarget, paths: readonly string[], headers: Record<string, string>, settings: LoadSettings): Promise<Measurement> {
  return combined(target, settings, [await segment(target, paths, headers, settings, settings.warmup, settings.duration)]);
}

/**
 * What one side of a pair sends where: the server, and the requests (two endpoints of one server, or one endpoint
 * of two servers, are both pairs).
 */
export type PairedLoad = { target: LoadTarget; paths: readonly string[]; headers: Record<string, string> };

/**
 * Two loads measured for a ratio of one to the other, interleaved: the first for half the duration, the second
 * for a half, the second again, then the first (A B B A), each half after its warm-up (the full warm-up before a
 * side's first half, rewarmSeconds before its second). Measured one after the other, a load on the shared machine
 * that rose or fell over the minute fell on one side more than the other; interleaved so, a load that changes
 * steadily weighs on both alike. Each side's figures are over both its halves: requests over their seconds,
 * latency percentiles of all their requests, CPU over all of them.
 */
export async function measurePair(first: PairedLoad, second: PairedLoad, settings: LoadSettings): Promise<MeasuredPair> {
  const half = settings.duration / 2;
  const rewarm = rewarmSeconds(settings);
  const run = ({ target, paths, headers }: PairedLoad, warmup: number) => segment(target, paths, headers, settings, warmup, half);
  const firstLoad = loadAverage();
  const firstHalves = [await run(first, settings.warmup)];
  const secondLoad = loadAverage();
  const secondHalves = [await run(second, settings.warmup)];
  secondHalves.push(await run(second, rewarm));
  firstHalves.push(await run(first, rewarm));
  return { measurements: [combined(first.target, settings, firstHalves), combined(second.target, settings, secondHalves)], loads: [firstLoad, secondLoad] };
}

async function segment(target: LoadTarget, paths: readonly string[], headers: Record<string, string>, settings: LoadSettings, warmup: number, duration: number): Promise<Segment> {
  if (paths.length === 0) throw new Error("nothing to request");
  let next = 0;
  const run = (seconds: number) =>
    autocannon({
      url: target.url,
      connections: settings.connections,
      duration: seconds,
      timeout: 30,
      headers,
      skipAggregateResult: true,
      requests: [{ method: "GET", setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }],
    });
  if (warmup > 0) await run(warmup);
  const { probe } = target;
  if (!probe) return { raw: await run(duration) };
  // The client is this process: autocannon runs in it, and nothing else does while it measures.
  const before = { server: treeCpuSeconds(probe.serverPid), database: treeCpuSeconds(probe.databasePid), client: process.cpuUsage() };
  const raw = await run(duration);
  const client = process.cpuUsage(before.client);
  return {
    raw,
    cpuSeconds: {
      server: treeCpuSeconds(probe.serverPid) - before.server,
      database: treeCpuSeconds(probe.databasePid) - before.database,
      client: (client.user + client.system) / 1e6,
    },
  };
}

/** A side's segments as one measurement (see measurePair). */
function combined(target: LoadTarget, settings: LoadSettings, segments: readonly Segment[]): Measurement {
  const sum = (value: (segment: Segment) => number) => segments.reduce((total, each) => total + value(each), 0);
  const requests = sum(({ raw }) => raw.totalCompletedRequests);
  const { latency } = autocannon.aggregateResult(
    segments.map(({ raw }) => raw),
    { url: target.url, connections: settings.connections },
  );
  const measured = segments.every((each) => each.cpuSeconds) && requests > 0;
  const perRequest = (seconds: number) => (seconds * 1000) / requests;
  return {
    requestsPerSecond: requests / sum(({ raw }) => raw.duration),
    p50: latency.p50,
    p99: latency.p99,
    requests,
    failures: sum(({ raw }) => raw.non2xx + raw.errors + raw.timeouts),
    ...(measured
      ? {
          cpu: {
            server: perRequest(sum((each) => each.cpuSeconds!.server)),
            database: perRequest(sum((each) => each.cpuSeconds!.database)),
            client: perRequest(sum((each) => each.cpuSeconds!.client)),
          },
        }
      : {}),
  };
}
