import type { EndpointId, FloorId } from "./endpoints";
import type { Measurement, RequestCpu } from "./load";
import type { Machine } from "./machine";
import type { PerfOutcome } from "./perf";
import type { ProfileSummary } from "./profile";

/** Seconds are wall-clock: subjects, sources and receipts; imports (normalize + applySourceFacts); VACUUM ANALYZE and CHECKPOINT after. */
export type SeedRun = {
  subjects: number;
  records: number;
  seconds: { setup: number; imports: number; total: number; vacuum: number };
  /** CPU seconds the seed used (setup and imports): the bench process's, PostgreSQL's (server and backends). */
  cpu?: { bench: number; database: number };
};

/** One endpoint measured on one dataset against both servers, with the load average as each measurement began. */
export type EndpointRun = {
  id: EndpointId;
  label: string;
  dataset: "large" | "small";
  records: number;
  app: Measurement;
  baseline: Measurement;
  load: { app: number; baseline: number };
};

/** One side of a PlatformPair: what the platform (or, for a read's floor, the baseline) served, on which dataset, and how it went. */
export type PairSide = { id: EndpointId | FloorId; label: string; records: number; measurement: Measurement; load: number };

/**
 * Two of the platform's measurements that a target compares, made for that target alone and interleaved
 * (load.ts, measurePair): a records read against GET /app on the large dataset, or the category page on the large
 * dataset against the small. Measured apart, minutes from each other, each side met its own share of what else ran
 * on the machine; interleaved, they meet it alike. A read's floor (endpoints.ts, FloorId) is paired with GET /app
 * the same way, so its ratio stands beside the read's.
 */
export type PlatformPair = {
  id: "category-vs-app" | "category-floor-vs-app" | "snapshot-vs-app" | "snapshot-floor-vs-app" | "category-large-vs-small";
  first: PairSide;
  second: PairSide;
};

/** One whole-source import of a long-history patient (scripts/bench/import-throughput.ts) beside its bare floor. */
export type ImportRun = {
  resources: number;
  records: number;
  seconds: number;
  resourcesPerSecond: number;
  recordsPerSecond: number;
  /** The timed import's phases in seconds (absent from runs before they were published). */
  phases?: { fetch: number; normalize: number; write: number };
  /**
   * CPU seconds of the importing process (all its threads, the collector's included) over the simulation that ran
   * the import (its sign-in too), absent from earlier runs: the health system and PostgreSQL are other processes.
   */
  cpuSeconds?: number;
  rerunSeconds: number;
  floorSeconds: number;
  floorRecordsPerSecond: number;
  /** Import records/s over the floor's. */
  ratio: number;
  /** The first import's peak (read before the re-run; runs before 2026-11-29 read it after the re-run). */
  peakRssMiB: number;
  /** The peak after the re-run too, which reads the source again before the first import's garbage is collected. */
  peakRssAfterRerunMiB?: number;
  rssBeforeMiB: number;
  load: number;
  /**
   * A worker's next import, right after (another patient of the same size, the process warmed and its heap grown by
   * the first): what most of a worker's imports meet. Absent from earlier runs.
   */
  next?: { seconds: number; resourcesPerSecond: number; recordsPerSecond: number; ratio: number; phases?: ImportRun["phases"]; cpuSeconds: number; load: number };
};

/** The webhook fan-out at one endpoint count (scripts/bench/webhook-fanout.ts), beside the bare sign-and-post loop. */
export type WebhookRun = {
  endpoints: number;
  /** Worker processes draining the backlog (1: one worker in the bench's own process). */
  workers?: number;
  events: number;
  /** Deliveries the receivers got, and attempts logged: both equal `events` when none is lost or doubled. */
  received?: number;
  attempts?: number;
  platform: number;
  bare: number;
  ratio: number;
  load: { platform: number; bare: number };
  /**
   * CPU milliseconds per delivery while draining: the bench's processes (worker or workers and the receivers) and
   * PostgreSQL for the platform; the bench's process (loop and receivers) for the bare loop.
   */
  cpuMs?: { platform: { worker: number; database: number }; bare: number };
};

/** Two app instances and two workers, each its own process, on one PostgreSQL (scripts/bench/scale-out.ts). */
export type ScaleOutRun = {
  instances: number;
  workers: number;
  /** One key's limit sent twice over, alternately to both instances: exact when `admitted` is `limit`. */
  rateLimit: { limit: number; sent: number; admitted: number; refused: number; load: number };
  /** Sources imported at once by the workers: each once when `sourcesImportedOnce` and `completed` are `sources`. */
  imports: { sources: number; imports: number; completed: number; sourcesImportedOnce: number; records: number; changes: number; seconds: number; load: number };
  /** A backlog drained by the workers, received per webhook-id, and the imports' own events. */
  deliveries: {
    queued: number;
    received: number;
    receivedOnce: number;
    attempts: number;
    perSecond: number;
    cpuMs: { workers: number; database: number };
    importEvents: number;
    importEventsDelivered: number;
    load: number;
  };
};

export type BenchResults = {
  startedAt: string;
  finishedAt: string;
  commit: string;
  machine: Machine;
  /** The bench's PostgreSQL cache: shared_buffers, huge_pages_status, and how it was had (absent in older runs). */
  /** The server's cache, and the size on disk of each dataset's database once seeded (pg_size_pretty), when measured. */
  postgres?: { sharedBuffers: string; hugePages: string; note: string; databases?: { large: string; small: string } };
  /** `interleaved`: each endpoint's two servers measured in alternate halves (load.ts, measurePair; absent from earlier runs). */
  settings: { connections: number; duration: number; warmup: number; rewarm?: number; seedConcurrency: number; recordsPerSubject: number; interleaved?: boolean };
  seed: { large: SeedRun; small: SeedRun };
  runs: EndpointRun[];
  /** Load averages sampled through the run (1-minute), to show whether other work shared the machine. */
  loadSamples: number[];
  quick?: boolean;
  imports?: ImportRun[];
  /**
   * How the imports waited for a quiet machine: below which 1-minute load average, for at most how long, how long
   * they waited and the load they began at (absent from earlier runs).
   */
  importsQuiet?: { below: number; maxSeconds: number; waitedSeconds: number; load: number };
  webhooks?: WebhookRun[];
  scaleOut?: ScaleOutRun;
  /** EXPLAIN (ANALYZE, BUFFERS, SERIALIZE) of the category page's and the snapshot's statement on the large dataset. */
  explain?: string;
  /** Where the category page's and the snapshot's time went, from a pass of their own (absent from earlier runs). */
  readProfiles?: ReadProfile[];
  /** The seed's load average as it began. */
  seedLoad?: { large: number; small: number };
  /** The targets' platform-against-platform comparisons, each measured as a pair (absent from earlier runs). */
  pairs?: PlatformPair[];
  /** The FHIR section (issue 52): absent from runs before it and from runs that leave it out. */
  fhir?: FhirRun;
};

/** One side of the FHIR search pair: a page, how many records the dataset holds, what it measured and the load as it began. */
export type FhirPageSide = { label: string; records: number; measurement: Measurement; load: number };

/**
 * A whole Bulk Data export of one dataset by a client written from the IG (fhir.ts, runExportClient), the worker
 * that ran it (a process of its own, fresh for this export) and the floor: a bare COPY ... TO STDOUT of the same rows
 * on the same database, run right before and right after the export.
 */
export type FhirExportRun = {
  dataset: "large" | "small";
  records: number;
  /** Resources in the downloaded files, files, bytes. */
  resources: number;
  files: number;
  bytes: number;
  /** Kick-off to the last byte of the last file; kick-off to the manifest; status requests made. */
  seconds: number;
  kickOffToManifest: number;
  polls: number;
  floors: { rows: number; bytes: number; seconds: number }[];
  /** The worker process's RSS once started (before the kick-off) and its peak (VmHWM) once the export completed, MiB. */
  rssBeforeMiB: number;
  peakRssMiB: number;
  load: number;
};

export type FhirRun = {
  /** When the section ran, at which commit, with the 1-minute load average over it (a run of its own, `--only fhir`, is merged into a full run's results.json). */
  measured: { startedAt: string; finishedAt: string; commit: string; loads: number[]; note?: string };
  /** The JSON category page and its FHIR view on the large dataset, measured as a pair (JSON first). */
  search: { json: FhirPageSide; fhir: FhirPageSide };
  exports: FhirExportRun[];
};

/** The export's floor: the faster of its two COPY runs. */
export function exportFloor(run: FhirExportRun): { rows: number; bytes: number; seconds: number } {
  return [...run.floors].sort((a, b) => a.seconds - b.seconds)[0]!;
}

/** Export resources/s over the floor's rows/s (the same rows). */
export function exportRatio(run: FhirExportRun): number {
  const floor = exportFloor(run);
  return run.resources / run.seconds / (floor.rows / floor.seconds);
}

export type Target = { name: string; goal: string; measured: string; met: boolean };

export const TARGETS = {
  endpointRatio: 0.5,
  appRatio: 0.9,
  p50Growth: 1.15,
  categoryVsApp: 0.5,
  snapshotVsApp: 0.25,
  importResourcesPerSecond: 5_000,
  importFloorRatio: 0.3,
  seedRecordsPerSecond: 5_000,
  /**
   * The largest import's own memory (its process's peak RSS over the RSS before it) over the smallest's: a linear
   * growth would be their size ratio. The process's own (modules, pools) is the same for every size, so counting it
   * would make any growth look small.
   */
  importRssGrowth: 2,
  deliveriesPerSecond: 2_000,
  deliveryRatio: 0.3,
  fhirSearchVsJson: 0.8,
  fhirExportVsCopy: 0.3,
  /** The export worker's peak RSS at the larger export over the smaller: flat in the export's size. */
  fhirExportRssGrowth: 1.25,
} as const;

export const ratio = (run: EndpointRun) => run.app.requestsPerSecond / run.baseline.requestsPerSecond;

const count = (value: number) => Math.round(value).toLocaleString("en-US");

/** The targets, evaluated on one run's figures. */
export function evaluateTargets(results: BenchResults): Target[] {
  const targets: Target[] = [];
  const largest = results.runs.filter((run) => run.dataset === "large");
  const find = (id: EndpointRun["id"], dataset: EndpointRun["dataset"] = "large") => results.runs.find((run) => run.id === id && run.dataset === dataset);

  const imports = [...(results.imports ?? [])].sort((a, b) => a.resources - b.resources);
  const typical = imports.find((run) => run.resources === 10_000) ?? imports[0];
  if (typical) {
    const name = `${count(typical.resources)}-resource patient`;
    // A worker's import is mostly its next one (the process warm); the first in a fresh process is shown beside it.
    const steady = typical.next ?? typical;
    const firstToo = (text: string) => (typical.next ? `${text}; first in a fresh process ${count(typical.resourcesPerSecond)}, ${typical.ratio.toFixed(2)}×` : text);
    const which = typical.next ? ", a worker's next import" : "";
    targets.push({
      name: `Import, resources/s end to end (${name}${which})`,
      goal: `≥ ${count(TARGETS.importResourcesPerSecond)}`,
      measured: firstToo(count(steady.resourcesPerSecond)),
      met: steady.resourcesPerSecond >= TARGETS.importResourcesPerSecond,
    });
    targets.push({
      name: `Import vs bare COPY floor, records/s (${name}${which})`,
      goal: `≥ ${TARGETS.importFloorRatio}×`,
      measured: firstToo(`${steady.ratio.toFixed(2)}× (${count(steady.recordsPerSecond)} vs ${count(typical.floorRecordsPerSecond)})`),
      met: steady.ratio >= TARGETS.importFloorRatio,
    });
  }
  if (imports.length >= 2) {
    const [small, large] = [imports[0]!, imports.at(-1)!];
    const own = (run: ImportRun) => run.peakRssMiB - run.rssBeforeMiB;
    const growth = own(large) / own(small);
    targets.push({
      name: `Import peak RSS over the process's own, ${count(large.resources)} vs ${count(small.resources)} resources`,
      goal: `≤ ${TARGETS.importRssGrowth}× (linear would be ${(large.resources / small.resources).toFixed(0)}×)`,
      measured: `${growth.toFixed(2)}× (${count(own(large))} vs ${count(own(small))} MiB; peaks ${count(large.peakRssMiB)} vs ${count(small.peakRssMiB)} MiB)`,
      met: growth <= TARGETS.importRssGrowth,
    });
  }
  const seeded = recordsPerSecond(results.seed.large);
  targets.push({ name: `Bench seed, records/s (${count(results.seed.large.records)} records)`, goal: `≥ ${count(TARGETS.seedRecordsPerSecond)}`, measured: count(seeded), met: seeded >= TARGETS.seedRecordsPerSecond });

  for (const run of (results.webhooks ?? []).filter((candidate) => (candidate.workers ?? 1) === 1)) {
    const met = run.platform >= TARGETS.deliveriesPerSecond && run.ratio >= TARGETS.deliveryRatio;
    targets.push({
      name: `Webhook fan-out, deliveries/s (${run.endpoints} endpoint${run.endpoints === 1 ? "" : "s"})`,
      goal: `≥ ${count(TARGETS.deliveriesPerSecond)} and ≥ ${TARGETS.deliveryRatio}× bare loop`,
      measured: `${count(run.platform)} (${run.ratio.toFixed(2)}× of ${count(run.bare)})`,
      met,
    });
  }

  if (results.scaleOut) {
    const { rateLimit, imports, deliveries } = results.scaleOut;
    const exact =
      rateLimit.admitted === rateLimit.limit &&
      imports.completed === imports.sources &&
      imports.sourcesImportedOnce === imports.sources &&
      deliveries.receivedOnce === deliveries.queued &&
      deliveries.received === deliveries.queued &&
      deliveries.attempts === deliveries.queued &&
      deliveries.importEventsDelivered === deliveries.importEvents;
    targets.push({
      name: "Two app processes and two workers on one PostgreSQL",
      goal: "rate limit exact; every job once",
      measured: `${rateLimit.admitted} of ${rateLimit.sent} admitted at ${rateLimit.limit}/min; ${imports.sourcesImportedOnce}/${imports.sources} sources imported once; ${count(deliveries.receivedOnce)}/${count(deliveries.queued)} delivered once (${count(deliveries.perSecond)}/s)`,
      met: exact,
    });
  }

  const app = find("app");
  const pairOf = (id: PlatformPair["id"]) => results.pairs?.find((candidate) => candidate.id === id);
  // A target's two sides come from its pair when the run measured one, else from the endpoints' own measurements.
  const compared = (id: PlatformPair["id"], first: EndpointRun | undefined, second: EndpointRun | undefined) => {
    const pair = pairOf(id);
    if (pair) return { first: pair.first.measurement, second: pair.second.measurement, records: [pair.first.records, pair.second.records] as const, paired: " (measured as a pair)" };
    return first && second ? { first: first.app, second: second.app, records: [first.records, second.records] as const, paired: "" } : undefined;
  };
  for (const [id, pairId, floorId, goal, name] of [
    ["category", "category-vs-app", "category-floor-vs-app", TARGETS.categoryVsApp, "Category page vs GET /app, requests/s"],
    ["snapshot", "snapshot-vs-app", "snapshot-floor-vs-app", TARGETS.snapshotVsApp, "Snapshot vs GET /app, requests/s"],
  ] as const) {
    const sides = compared(pairId, find(id), app);
    if (!sides) continue;
    const value = sides.first.requestsPerSecond / sides.second.requestsPerSecond;
    // The floor, measured, says what any server reaches; runs without it say what the CPU split bounds.
    const floor = pairOf(floorId);
    const bound = floor ? undefined : cheapServerBound(sides.first.cpu, sides.second.cpu);
    const beside = floor
      ? `; its floor (a bare server that only reads the records from PostgreSQL and forwards them: no key, no consent) ${(floor.first.measurement.requestsPerSecond / floor.second.measurement.requestsPerSecond).toFixed(2)}× (${count(floor.first.measurement.requestsPerSecond)} vs ${count(floor.second.measurement.requestsPerSecond)}, measured as a pair)`
      : bound
        ? `; at most ${bound.ratio.toFixed(2)}× were its server work no more than GET /app's (ms of CPU a request: PostgreSQL ${bound.database.toFixed(2)} + client ${bound.client.toFixed(2)} + GET /app's server ${bound.appServer.toFixed(2)}, vs GET /app's ${bound.app.toFixed(2)} in all)`
        : "";
    targets.push({
      name: `${name}${sides.paired}`,
      goal: `≥ ${goal}×`,
      measured: `${value.toFixed(2)}× (${count(sides.first.requestsPerSecond)} vs ${count(sides.second.requestsPerSecond)})${beside}`,
      met: value >= goal,
    });
  }
  if (app) targets.push({ name: "GET /app vs bare server, requests/s", goal: `≥ ${TARGETS.appRatio}×`, measured: `${ratio(app).toFixed(2)}×`, met: ratio(app) >= TARGETS.appRatio });
  const pages = compared("category-large-vs-small", find("category"), find("category", "small"));
  if (pages) {
    const [large, small] = [pages.first, pages.second];
    const growth = large.p50 / small.p50;
    targets.push({
      name: `Category page p50 at ${count(pages.records[0])} vs ${count(pages.records[1])} records${pages.paired}`,
      goal: `≤ ${TARGETS.p50Growth}×`,
      measured: `${growth.toFixed(2)}× (${large.p50} ms vs ${small.p50} ms; ${count(large.requestsPerSecond)} vs ${count(small.requestsPerSecond)} requests/s)`,
      met: growth <= TARGETS.p50Growth,
    });
  }
  targets.push(...fhirTargets(results.fhir));
  // The health check is a reference (what serving any operation costs), not one of the endpoints.
  for (const run of largest.filter((candidate) => candidate.id !== "health" && candidate.id !== "app")) {
    const value = ratio(run);
    targets.push({ name: `${run.label}: requests/s vs bare server`, goal: `≥ ${TARGETS.endpointRatio}×`, measured: `${value.toFixed(2)}×`, met: value >= TARGETS.endpointRatio });
  }
  return targets;
}

/** The FHIR section's three targets (issue 52, point 5), when the run measured it. */
export function fhirTargets(fhir: FhirRun | undefined): Target[] {
  if (!fhir) return [];
  const targets: Target[] = [];
  const { json, fhir: page } = fhir.search;
  const searchRatio = page.measurement.requestsPerSecond / json.measurement.requestsPerSecond;
  targets.push({
    name: "FHIR search page (50 Observations) vs the JSON category page, requests/s (measured as a pair)",
    goal: `≥ ${TARGETS.fhirSearchVsJson}×`,
    measured: `${searchRatio.toFixed(2)}× (${count(page.measurement.requestsPerSecond)} vs ${count(json.measurement.requestsPerSecond)})`,
    met: searchRatio >= TARGETS.fhirSearchVsJson,
  });
  const exports = [...fhir.exports].sort((a, b) => a.resources - b.resources);
  const largest = exports.at(-1);
  if (largest) {
    const floor = exportFloor(largest);
    const value = exportRatio(largest);
    targets.push({
      name: `Bulk Data export, whole (kick-off to last file), vs bare COPY of the same rows, resources/s (${count(largest.resources)} resources)`,
      goal: `≥ ${TARGETS.fhirExportVsCopy}×`,
      measured: `${value.toFixed(2)}× (${count(largest.resources / largest.seconds)} vs ${count(floor.rows / floor.seconds)}; ${largest.seconds.toFixed(1)} s vs ${floor.seconds.toFixed(1)} s)`,
      met: value >= TARGETS.fhirExportVsCopy,
    });
  }
  if (exports.length >= 2) {
    const [small, large] = [exports[0]!, exports.at(-1)!];
    const growth = large.peakRssMiB / small.peakRssMiB;
    targets.push({
      name: `Export worker's peak RSS, ${count(large.resources)} vs ${count(small.resources)} resources`,
      goal: `≤ ${TARGETS.fhirExportRssGrowth}× (flat; linear would be ${(large.resources / small.resources).toFixed(0)}×)`,
      measured: `${growth.toFixed(2)}× (${count(large.peakRssMiB)} vs ${count(small.peakRssMiB)} MiB; at start ${count(large.rssBeforeMiB)} and ${count(small.rssBeforeMiB)} MiB)`,
      met: growth <= TARGETS.fhirExportRssGrowth,
    });
  }
  return targets;
}

/**
 * The most an endpoint's requests/s could be against GET /app's were the platform's server to spend on a request of
 * it no more than on a GET /app (which every keyed request's work includes: the request read, the key checked, a
 * statement sent, an answer written): with the cores busy (the bench keeps them so), requests/s go as the inverse
 * of the CPU a request takes from every process, so the bound is GET /app's CPU in all over the endpoint's
 * PostgreSQL and load-client CPU, work no server code can spare (PostgreSQL runs the one statement; the client reads
 * the answer), plus GET /app's server CPU.
 */
export function cheapServerBound(endpoint: RequestCpu | undefined, app: RequestCpu | undefined): { ratio: number; database: number; client: number; appServer: number; app: number } | undefined {
  if (!endpoint || !app) return undefined;
  const appTotal = app.server + app.database + app.client;
  const least = endpoint.database + endpoint.client + app.server;
  return least > 0 ? { ratio: appTotal / least, database: endpoint.database, client: endpoint.client, appServer: app.server, app: appTotal } : undefined;
}

export function recordsPerSecond(seed: SeedRun): number {
  return seed.records / seed.seconds.imports;
}

/**
 * One records read profiled under load in a pass of its own (profiled, so not a measurement): the platform
 * process's `--cpu-prof` summary, and the platform's and PostgreSQL's `perf` samples (or why none were taken).
 */
export type ReadProfile = {
  id: EndpointId;
  label: string;
  requestsPerSecond: number;
  server?: ProfileSummary;
  /** The platform process as perf sampled it: CPU only (the JavaScript profile counts a thread in a system call, or waiting for a core, as busy). */
  serverPerf: PerfOutcome;
  postgres: PerfOutcome;
};
