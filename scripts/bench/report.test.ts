import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderChart } from "./chart";
import { renderReport } from "./report";
import { evaluateTargets, cheapServerBound, type BenchResults, type EndpointRun, type PairSide } from "./results";
import { writeResults } from "./write-results";

const measurement = (requestsPerSecond: number, p50: number) => ({ requestsPerSecond, p50, p99: p50 * 3, requests: requestsPerSecond * 10, failures: 0 });
const run = (id: EndpointRun["id"], dataset: EndpointRun["dataset"], app: number, baseline: number, p50: number): EndpointRun => ({
  id,
  label: `GET ${id}`,
  dataset,
  records: dataset === "large" ? 1_000_000 : 10_000,
  app: measurement(app, p50),
  baseline: measurement(baseline, 5),
  load: { app: 2, baseline: 2 },
});

const results: BenchResults = {
  startedAt: "2026-11-23T10:00:00.000Z",
  finishedAt: "2026-11-23T11:00:00.000Z",
  commit: "abc1234",
  machine: { cpuModel: "Test CPU <x>", cpus: 2, memoryGiB: 24, node: "v20.0.0", platform: "Linux" },
  settings: { connections: 32, duration: 10, warmup: 3, seedConcurrency: 6, recordsPerSubject: 100 },
  seed: {
    large: { subjects: 10_000, records: 1_000_000, seconds: { setup: 5, imports: 500, total: 505, vacuum: 20 }, cpu: { bench: 150, database: 100 } },
    small: { subjects: 100, records: 10_000, seconds: { setup: 1, imports: 5, total: 6, vacuum: 1 } },
  },
  runs: [run("health", "large", 1200, 2400, 8), run("app", "large", 1000, 2000, 10), run("category", "large", 300, 500, 13), run("category", "small", 320, 520, 10)],
  loadSamples: [1.5, 2.5],
};

describe("bench report", () => {
  it("evaluates the issue's targets (the health reference is none): pages against GET /app, GET /app at 0.9x, p50 growth at most 1.15x, seed, imports and fan-out", () => {
    expect(evaluateTargets(results).map((target) => [target.name, target.measured, target.met])).toEqual([
      ["Bench seed, records/s (1,000,000 records)", "2,000", false],
      ["Category page vs GET /app, requests/s", "0.30× (300 vs 1,000)", false],
      ["GET /app vs bare server, requests/s", "0.50×", false],
      ["Category page p50 at 1,000,000 vs 10,000 records", "1.30× (13 ms vs 10 ms; 300 vs 320 requests/s)", false],
      ["GET category: requests/s vs bare server", "0.60×", true],
    ]);
    const imported = { resources: 10_000, records: 9_000, seconds: 1.6, resourcesPerSecond: 6_250, recordsPerSecond: 5_625, rerunSeconds: 0.5, floorSeconds: 0.9, floorRecordsPerSecond: 10_000, ratio: 0.5625, peakRssMiB: 300, rssBeforeMiB: 200, load: 2 };
    const full = {
      ...results,
      runs: [...results.runs, run("snapshot", "large", 260, 400, 20)],
      imports: [imported, { ...imported, resources: 50_000, peakRssMiB: 700 }],
      webhooks: [{ endpoints: 10, events: 10_000, platform: 2_500, bare: 5_000, ratio: 0.5, load: { platform: 2, bare: 2 } }],
    };
    expect(evaluateTargets(full).slice(0, 5).map((target) => [target.name, target.measured, target.met])).toEqual([
      ["Import, resources/s end to end (10,000-resource patient)", "6,250", true],
      ["Import vs bare COPY floor, records/s (10,000-resource patient)", "0.56× (5,625 vs 10,000)", true],
      ["Import peak RSS over the process's own, 50,000 vs 10,000 resources", "5.00× (500 vs 100 MiB; peaks 700 vs 300 MiB)", false],
      ["Bench seed, records/s (1,000,000 records)", "2,000", false],
      ["Webhook fan-out, deliveries/s (10 endpoints)", "2,500 (0.50× of 5,000)", true],
    ]);
    expect(evaluateTargets(full).find((target) => target.name.startsWith("Snapshot vs GET /app"))).toMatchObject({ measured: "0.26× (260 vs 1,000)", met: true });
  });

  it("holds a worker's next import to the import targets, the first in a fresh process beside it, and renders both", () => {
    const first = { resources: 10_000, records: 9_000, seconds: 2.5, resourcesPerSecond: 4_000, recordsPerSecond: 3_600, rerunSeconds: 0.5, floorSeconds: 0.5, floorRecordsPerSecond: 18_000, ratio: 0.2, peakRssMiB: 300, rssBeforeMiB: 200, load: 2 };
    const next = { seconds: 1.25, resourcesPerSecond: 8_000, recordsPerSecond: 7_200, ratio: 0.4, phases: { fetch: 0.4, normalize: 0.4, write: 0.45 }, cpuSeconds: 1.3, load: 1.5 };
    const withNext = { ...results, imports: [{ ...first, next }] };
    expect(evaluateTargets(withNext).slice(0, 2).map((target) => [target.name, target.measured, target.met])).toEqual([
      ["Import, resources/s end to end (10,000-resource patient, a worker's next import)", "8,000; first in a fresh process 4,000, 0.20×", true],
      ["Import vs bare COPY floor, records/s (10,000-resource patient, a worker's next import)", "0.40× (7,200 vs 18,000); first in a fresh process 4,000, 0.20×", true],
    ]);
    const slowNext = { ...results, imports: [{ ...first, next: { ...next, resourcesPerSecond: 4_500, ratio: 0.25 } }] };
    expect(evaluateTargets(slowNext).slice(0, 2).map((target) => target.met)).toEqual([false, false]);
    const markdown = renderReport(withNext, { results: { ...results, imports: [first] }, note: "Before: first imports only." });
    expect(markdown).toContain("| 10,000 | 1.3 s | 0.4, 0.4, 0.5 s | 1.3 s | **8,000** | 7,200 | **0.40×** | 1.5 |");
    expect(markdown).toContain("| Import, 10,000 resources, first in a fresh process: resources/s (× floor) | 4,000 (0.20×) | 4,000 (0.20×) |");
    expect(markdown).toContain("| Import, 10,000 resources, a worker's next: resources/s (× floor) | – | 8,000 (0.40×) |");
  });

  it("says how long this run's imports waited for a quiet machine, and whether it became quiet", () => {
    const first = { resources: 10_000, records: 9_000, seconds: 2.5, resourcesPerSecond: 4_000, recordsPerSecond: 3_600, rerunSeconds: 0.5, floorSeconds: 0.5, floorRecordsPerSecond: 18_000, ratio: 0.2, peakRssMiB: 300, rssBeforeMiB: 200, load: 2 };
    const quick = renderReport({ ...results, imports: [first], importsQuiet: { below: 1, maxSeconds: 15, waitedSeconds: 10, load: 0.8 } });
    expect(quick).toContain("(once the 1-minute load average is below 1, waiting at most 15 s: they began at 0.8 after 10 s;");
    const busy = renderReport({ ...results, imports: [first], importsQuiet: { below: 1, maxSeconds: 150, waitedSeconds: 150, load: 2.4 } });
    expect(busy).toContain("waiting at most 150 s: it was still 2.4 after 150 s, and they began;");
    expect(renderReport({ ...results, imports: [first] })).toContain("(once the 1-minute load average was low;");
  });

  it("says how the endpoints' two servers were measured: interleaved halves, or (earlier runs) one after the other", () => {
    const interleaved = renderReport({ ...results, settings: { ...results.settings, interleaved: true } });
    expect(interleaved).toContain("10 s measured per endpoint and server, in two halves interleaved with the other server's (baseline, platform, platform, baseline");
    expect(interleaved).toContain("3 s of warm-up before a server's first half and 1 s before its second");
    expect(renderReport(results)).toContain("3 s warm-up then 10 s measured per endpoint and server, after each");
    // A quick run measures the second halves without a rewarm, and says it profiled nothing.
    const quick = renderReport({ ...results, quick: true, settings: { ...results.settings, warmup: 1, rewarm: 0, interleaved: true } });
    expect(quick).toContain("1 s of warm-up before a server's first half and 0 s before its second");
    expect(quick).toContain("This is a `--quick` run: every measurement at a small size, each pair's second halves without a rewarm, and no profile pass after them.");
    expect(interleaved).not.toContain("This is a `--quick` run");
  });

  it("holds the scale-out run to exactness: the rate limit across instances and every job once", () => {
    const scaleOut = {
      instances: 2,
      workers: 2,
      rateLimit: { limit: 60, sent: 120, admitted: 60, refused: 60, load: 2 },
      imports: { sources: 8, imports: 8, completed: 8, sourcesImportedOnce: 8, records: 208, changes: 208, seconds: 10, load: 2 },
      deliveries: { queued: 2000, received: 2000, receivedOnce: 2000, attempts: 2000, perSecond: 1000, cpuMs: { workers: 0.5, database: 0.5 }, importEvents: 8, importEventsDelivered: 8, load: 2 },
    };
    const target = (run: typeof scaleOut) => evaluateTargets({ ...results, scaleOut: run }).find((candidate) => candidate.name.startsWith("Two app processes"));
    expect(target(scaleOut)).toMatchObject({ measured: "60 of 120 admitted at 60/min; 8/8 sources imported once; 2,000/2,000 delivered once (1,000/s)", met: true });
    expect(target({ ...scaleOut, rateLimit: { ...scaleOut.rateLimit, admitted: 61, refused: 59 } })?.met).toBe(false);
    expect(target({ ...scaleOut, deliveries: { ...scaleOut.deliveries, received: 2001, receivedOnce: 1999 } })?.met).toBe(false);
    expect(renderReport({ ...results, scaleOut })).toContain("- Rate limit: one key limited to 60 requests a minute, sent 120 requests alternately to both instances at once: 60 admitted, 60 refused (exact across instances)");
  });

  it("renders the machine, the seed throughput, every measurement with its ratio, and a before/after table", () => {
    const markdown = renderReport(results, { results, note: "Before: the same run." });
    expect(markdown).toContain("Test CPU <x>, 2 cores");
    expect(markdown).toContain("| 1,000,000 records | 10,000 | 1,000,000 | 5.0 s | 500.0 s | **2,000** | 150.0 + 100.0 s | 4,000 | 20.0 s | – |");
    expect(markdown).toContain("| 10,000 records | 100 | 10,000 | 1.0 s | 5.0 s | **2,000** | – | – | 1.0 s | – |");
    expect(markdown).toContain("| Bench seed, records/s (1,000,000 → 1,000,000 records) | 2,000 | 2,000 |");
    expect(markdown).toContain("| GET app | 1,000,000 records | 1,000 | 10 ms | 30 ms | 2,000 | 5 ms | 15 ms | **0.50×** | 2, 2 |");
    expect(markdown).toContain("## Before and after");
    expect(markdown).toContain("![requests per second, app and baseline](results.svg)");
    expect(markdown).not.toContain("PostgreSQL (embedded)");
    const cache = { sharedBuffers: "3GB", hugePages: "on", note: "shared_buffers 3GB in 2 MB huge pages" };
    expect(renderReport({ ...results, postgres: cache })).toContain("- PostgreSQL (embedded): shared_buffers 3GB in 2 MB huge pages; the server reported shared_buffers 3GB, huge pages on\n");
    const sized = { ...cache, databases: { large: "2950 MB", small: "31 MB" } };
    expect(renderReport({ ...results, postgres: sized })).toContain("huge pages on; the seeded databases: 2950 MB (large) and 31 MB (small)\n");
  });

  it("splits each measured run's CPU per request by process: server, PostgreSQL, client", () => {
    const cpu = (server: number) => ({ server, database: 1.2, client: 0.25 });
    const withCpu = results.runs.map((entry) => ({ ...entry, app: { ...entry.app, cpu: cpu(1) }, baseline: { ...entry.baseline, cpu: cpu(0.5) } }));
    const markdown = renderReport({ ...results, runs: withCpu });
    expect(markdown).toContain("### CPU per request, process by process");
    expect(markdown).toContain("| GET category | 1,000,000 records | 1.00 / 1.20 / 0.25 | 2.45 | 0.50 / 1.20 / 0.25 | 1.95 |");
    expect(renderReport(results)).not.toContain("CPU per request, process by process");
  });

  it("bounds a page against GET /app by the CPU no server code can spare: PostgreSQL's, the client's and GET /app's own server work", () => {
    const withCpu = (entry: EndpointRun, cpu: { server: number; database: number; client: number }) => ({ ...entry, app: { ...entry.app, cpu } });
    const runs = results.runs.map((entry) =>
      entry.id === "app" ? withCpu(entry, { server: 0.26, database: 0.14, client: 0.08 }) : entry.id === "category" ? withCpu(entry, { server: 1.25, database: 0.99, client: 0.21 }) : entry,
    );
    const category = evaluateTargets({ ...results, runs }).find((target) => target.name.startsWith("Category page vs GET /app"));
    expect(category).toEqual({
      name: "Category page vs GET /app, requests/s",
      goal: "≥ 0.5×",
      measured: "0.30× (300 vs 1,000); at most 0.33× were its server work no more than GET /app's (ms of CPU a request: PostgreSQL 0.99 + client 0.21 + GET /app's server 0.26, vs GET /app's 0.48 in all)",
      met: false,
    });
    expect(cheapServerBound(undefined, runs[1]!.app.cpu)).toBeUndefined();
  });

  it("reads the targets that compare the platform with itself from their pairs when the run measured them, and renders the pairs", () => {
    const side = (id: EndpointRun["id"], records: number, requestsPerSecond: number, p50: number, server: number) => ({
      id,
      label: `GET ${id}`,
      records,
      measurement: { ...measurement(requestsPerSecond, p50), cpu: { server, database: id === "app" ? 0.2 : 1, client: 0.1 } },
      load: 2.5,
    });
    const pairs = [
      { id: "category-vs-app" as const, first: side("category", 1_000_000, 400, 40, 1.2), second: side("app", 1_000_000, 1_600, 10, 0.4) },
      { id: "snapshot-vs-app" as const, first: side("snapshot", 1_000_000, 320, 50, 2), second: side("app", 1_000_000, 1_600, 10, 0.4) },
      { id: "category-large-vs-small" as const, first: side("category", 1_000_000, 400, 40, 1.2), second: side("category", 10_000, 420, 36, 1.2) },
    ];
    const paired = { ...results, runs: [...results.runs, run("snapshot", "large", 260, 400, 20)], pairs };
    const targets = evaluateTargets(paired).map((target) => [target.name, target.measured.split(";")[0], target.met]);
    // The sides measured minutes apart (300 vs 1,000, 13 vs 10 ms) give way to the pairs'.
    expect(targets).toContainEqual(["Category page vs GET /app, requests/s (measured as a pair)", "0.25× (400 vs 1,600)", false]);
    expect(targets).toContainEqual(["Snapshot vs GET /app, requests/s (measured as a pair)", "0.20× (320 vs 1,600)", false]);
    expect(targets).toContainEqual(["Category page p50 at 1,000,000 vs 10,000 records (measured as a pair)", "1.11× (40 ms vs 36 ms", true]);
    // The bound reads the pair's CPU: PostgreSQL 1 + client 0.1 + GET /app's server 0.4 against GET /app's 0.7.
    expect(evaluateTargets(paired).find((target) => target.name.startsWith("Category page vs"))?.measured).toContain("at most 0.47×");
    const markdown = renderReport(paired);
    expect(markdown).toContain("### The targets' pairs: the platform against itself, and the reads' floors");
    expect(markdown).toContain("| Category page vs GET /app | GET category, 1,000,000 records | 400 | 40 ms | 120 ms | 1.20 / 1.00 / 0.10 (2.30) | 2.5 | requests/s **0.25×**, p50 4.00× |");
    expect(markdown).toContain("|  | GET app, 1,000,000 records | 1,600 | 10 ms | 30 ms | 0.40 / 0.20 / 0.10 (0.70) | 2.5 |  |");
    expect(markdown).toContain("| Category page, large vs small dataset | GET category, 1,000,000 records | 400 | 40 ms | 120 ms |");
    expect(renderReport(results)).not.toContain("The targets' pairs");
  });

  it("sets a read's measured floor beside its target in place of the bound the CPU split gives, and renders the floor's pair", () => {
    const side = (id: PairSide["id"], requestsPerSecond: number, server: number) => ({
      id,
      label: `GET ${id}`,
      records: 1_000_000,
      measurement: { ...measurement(requestsPerSecond, 20), cpu: { server, database: id === "app" ? 0.2 : 1, client: 0.1 } },
      load: 2.5,
    });
    const pairs = [
      { id: "category-vs-app" as const, first: side("category", 400, 1.2), second: side("app", 1_600, 0.4) },
      { id: "category-floor-vs-app" as const, first: side("category-floor", 700, 0.5), second: side("app", 1_750, 0.4) },
      { id: "snapshot-vs-app" as const, first: side("snapshot", 320, 2), second: side("app", 1_600, 0.4) },
    ];
    const paired = { ...results, runs: [...results.runs, run("snapshot", "large", 260, 400, 20)], pairs };
    const measured = (start: string) => evaluateTargets(paired).find((target) => target.name.startsWith(start))?.measured;
    // The category page's floor (700 vs 1,750) is set beside it; the snapshot, whose floor this run did not measure, keeps its bound.
    expect(measured("Category page vs")).toBe(
      "0.25× (400 vs 1,600); its floor (a bare server that only reads the records from PostgreSQL and forwards them: no key, no consent) 0.40× (700 vs 1,750, measured as a pair)",
    );
    expect(measured("Snapshot vs")).toContain("at most");
    expect(measured("Snapshot vs")).not.toContain("its floor");
    const markdown = renderReport(paired);
    expect(markdown).toContain("| Its floor vs GET /app | GET category-floor, 1,000,000 records | 700 | 20 ms |");
    expect(markdown).toContain("requests/s **0.40×**");
    expect(markdown).toContain("Each records read is followed by its floor");
  });

  it("renders where each profiled read's time went: the platform's profile and samples, and PostgreSQL's, or why they were not sampled", () => {
    const server = { busyMs: 8_000, components: [{ name: "npm pg-protocol", percent: 12.5 }], functions: [{ name: "parse (npm pg-protocol:10)", percent: 6.25 }] };
    const unavailable = { unavailable: "perf is not installed (Debian's linux-perf package provides it)" };
    const report = renderReport({
      ...results,
      readProfiles: [
        {
          id: "category",
          label: "GET category",
          requestsPerSecond: 702.4,
          server,
          serverPerf: { processes: "the platform process", samples: 4_000, kernelPercent: 38, symbols: [{ name: "tcp_sendmsg", kernel: true, percent: 12 }] },
          postgres: { processes: "postgres", samples: 9_000, kernelPercent: 41.5, symbols: [{ name: "__x64_sys_sendto", kernel: true, percent: 9 }, { name: "printtup", kernel: false, percent: 8.5 }] },
        },
        { id: "snapshot", label: "GET snapshot", requestsPerSecond: 480, serverPerf: unavailable, postgres: unavailable },
      ],
    });
    expect(report).toContain("#### GET category (profiled at 702 requests/s)");
    expect(report).toContain("| `npm pg-protocol` | 12.5% | `parse (npm pg-protocol:10)` | 6.3% |");
    expect(report).toContain("The platform process as `perf` sampled it (CPU only, every thread of it): about 4,000 samples, 38.0% of them in the kernel.\n\n| Symbol | Share |\n|---|---:|\n| [k] `tcp_sendmsg` | 12.0% |");
    expect(report).toContain("PostgreSQL: about 9,000 samples, 41.5% of them in the kernel.");
    expect(report).toContain("| [k] `__x64_sys_sendto` | 9.0% |\n| `printtup` | 8.5% |");
    expect(report).toContain(
      "#### GET snapshot (profiled at 480 requests/s)\n\nThe platform process wrote no profile.\n\nThe platform process as `perf` sampled it (CPU only, every thread of it): not sampled, perf is not installed (Debian's linux-perf package provides it).\n\nPostgreSQL: not sampled, perf is not installed",
    );
    expect(renderReport(results)).not.toContain("Where a records read's time goes: the platform process");
  });

  it("draws one pair of bars per measurement, escaping text", () => {
    const svg = renderChart(results);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.match(/height="18"/g)).toHaveLength(8);
    expect(svg).toContain("Test CPU &lt;x&gt;");
    expect(svg).not.toContain("<x>");
  });
});

describe("writeResults", () => {
  it("writes the run as measured and renders the report beside the earlier run in before/", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "ck-bench-out-"));
    await writeResults(out, results);
    expect(JSON.parse(readFileSync(path.join(out, "results.json"), "utf8"))).toEqual(results);
    expect(readFileSync(path.join(out, "results.md"), "utf8")).not.toContain("## Before and after");
    expect(readFileSync(path.join(out, "results.svg"), "utf8").startsWith("<svg")).toBe(true);

    mkdirSync(path.join(out, "before"));
    writeFileSync(path.join(out, "before", "results.json"), JSON.stringify({ ...results, startedAt: "2026-11-22T10:00:00.000Z", commit: "f968385", settings: { ...results.settings, duration: 3 } }));
    await writeResults(out, results);
    const markdown = readFileSync(path.join(out, "results.md"), "utf8");
    expect(markdown).toContain("Before: the run of 2026-11-22T10:00:00.000Z at commit `f968385` (before/results.json), on the same machine (this run: 10 s per measurement).");
    expect(readFileSync(path.join(out, "results.json"), "utf8")).toBe(`${JSON.stringify(results, null, 2)}\n`);
    await writeResults(out, { ...results, settings: { ...results.settings, duration: 3, interleaved: true } });
    expect(readFileSync(path.join(out, "results.md"), "utf8")).toContain(
      "at commit `f968385` (before/results.json), on the same machine (its endpoints measured one server after the other, this run's in interleaved halves).",
    );
  });
});
