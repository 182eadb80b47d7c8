import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measure, measurePair, rewarmSeconds } from "./load";

/** A server that answers every GET with 200 after `delayMs`, noting when each request came, its path and its side header. */
async function recordingServer(delayMs: number) {
  const seen: { at: number; path: string; side?: string }[] = [];
  const server = http.createServer((request, response) => {
    seen.push({ at: performance.now(), path: request.url ?? "", side: request.headers["x-side"] as string | undefined });
    setTimeout(() => response.end("ok"), delayMs);
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("rewarmSeconds", () => {
  it("discards a second at most before a pair side's second half, or what the settings ask", () => {
    expect(rewarmSeconds({ warmup: 3 })).toBe(1);
    expect(rewarmSeconds({ warmup: 0.5 })).toBe(0.5);
    expect(rewarmSeconds({ warmup: 1, rewarm: 0 })).toBe(0);
  });
});

describe("load measurements", () => {
  let fast: Awaited<ReturnType<typeof recordingServer>>;
  let slow: Awaited<ReturnType<typeof recordingServer>>;
  beforeAll(async () => {
    fast = await recordingServer(1);
    slow = await recordingServer(8);
  });
  afterAll(async () => {
    await fast.close();
    await slow.close();
  });

  // autocannon ends a run at its next one-second sample: halves of whole seconds are measured as long as asked.
  const settings = { connections: 2, duration: 2, warmup: 0.5 };
  // Requests/s are over the seconds autocannon measured, which a busy machine stretches: 2 s took 3 s in a whole
  // test run at load 14 (the browser tests beside it). Warm-ups' exclusion is checked by counting requests instead.
  const STRETCHED = 0.5;

  it("measures a pair in alternate halves, the first server's around the second's, each over both its halves", async () => {
    fast.seen.length = 0;
    slow.seen.length = 0;
    const { measurements, loads } = await measurePair(
      { target: { url: fast.url }, paths: ["/a", "/b"], headers: {} },
      { target: { url: slow.url }, paths: ["/a", "/b"], headers: {} },
      settings,
    );
    const [onFast, onSlow] = measurements;
    const times = (server: typeof fast) => server.seen.map(({ at }) => at);
    // A B B A: the first server was loaded before the second started and again after it ended.
    expect(Math.min(...times(fast))).toBeLessThan(Math.min(...times(slow)));
    expect(Math.max(...times(fast))).toBeGreaterThan(Math.max(...times(slow)));
    // ... and not while the second was (a gap in its requests spans all of the second's).
    expect(times(fast).filter((at) => at > Math.min(...times(slow)) && at < Math.max(...times(slow)))).toEqual([]);
    // Each server's requests/s is over the seconds of its two measured halves, not its warm-ups.
    for (const measured of [onFast, onSlow]) {
      expect(measured.requests).toBeGreaterThan(0);
      expect(measured.requestsPerSecond).toBeGreaterThan((measured.requests / settings.duration) * STRETCHED);
      expect(measured.requestsPerSecond).toBeLessThan((measured.requests / settings.duration) * 1.2);
      expect(measured.failures).toBe(0);
      expect(measured.cpu).toBeUndefined();
    }
    // The latency percentiles are of the merged halves: the slow server's are its delay's, the fast one's below it.
    expect(onSlow.p50).toBeGreaterThanOrEqual(8);
    expect(onFast.p50).toBeLessThan(onSlow.p50);
    expect(onFast.requestsPerSecond).toBeGreaterThan(onSlow.requestsPerSecond);
    expect(fast.seen.some(({ path }) => path === "/a") && fast.seen.some(({ path }) => path === "/b")).toBe(true);
    expect(loads.every((load) => Number.isFinite(load))).toBe(true);
  });

  it("measures two endpoints of one server as a pair, each side with its own paths and headers, A B B A", async () => {
    // A server of its own: requests another test's load left on the wire cannot reach it.
    const fast = await recordingServer(1);
    const { measurements } = await measurePair(
      { target: { url: fast.url }, paths: ["/first/1", "/first/2"], headers: { "x-side": "first" } },
      { target: { url: fast.url }, paths: ["/second"], headers: { "x-side": "second" } },
      settings,
    ).finally(fast.close);
    // Every request carried its own side's header and one of its side's paths.
    const sides = { first: fast.seen.filter(({ side }) => side === "first"), second: fast.seen.filter(({ side }) => side === "second") };
    expect(sides.first.length + sides.second.length).toBe(fast.seen.length);
    expect(sides.first.every(({ path }) => path.startsWith("/first/"))).toBe(true);
    expect(sides.second.every(({ path }) => path === "/second")).toBe(true);
    // The first side's requests came before and after all of the second's, none between.
    const [secondFrom, secondTo] = [Math.min(...sides.second.map(({ at }) => at)), Math.max(...sides.second.map(({ at }) => at))];
    expect(sides.first.some(({ at }) => at < secondFrom) && sides.first.some(({ at }) => at > secondTo)).toBe(true);
    expect(sides.first.filter(({ at }) => at > secondFrom && at < secondTo)).toEqual([]);
    // Each side counts its own requests only.
    expect(measurements[0].requests).toBeLessThan(sides.first.length);
    expect(measurements[1].requests).toBeLessThan(sides.second.length);
    expect(measurements.every((measured) => measured.requests > 0 && measured.failures === 0)).toBe(true);
  });

  it("measures one server for the whole duration after its warm-up", async () => {
    slow.seen.length = 0;
    const measured = await measure({ url: slow.url }, ["/only"], {}, settings);
    expect(measured.requests).toBeGreaterThan(0);
    expect(measured.requestsPerSecond).toBeGreaterThan((measured.requests / settings.duration) * STRETCHED);
    expect(measured.requestsPerSecond).toBeLessThan((measured.requests / settings.duration) * 1.2);
    // Warm-up requests reached the server but are not counted.
    expect(slow.seen.length).toBeGreaterThan(measured.requests);
  });

  it("reads CPU per request from the probed processes over the measured seconds", async () => {
    // The test servers run in this process: probed as the server and the database both.
    const probe = { serverPid: process.pid, databasePid: process.pid };
    const { measurements } = await measurePair({ target: { url: fast.url, probe }, paths: ["/cpu"], headers: {} }, { target: { url: slow.url, probe }, paths: ["/cpu"], headers: {} }, settings);
    for (const { cpu } of measurements) {
      expect(cpu).toBeDefined();
      for (const milliseconds of [cpu!.server, cpu!.database, cpu!.client]) expect(milliseconds).toBeGreaterThan(0);
    }
  });
});
