// `npm run bench`: seeds a fresh embedded PostgreSQL through the write path (1,000,000 records across 10,000
// subjects by default, and a second dataset of 10,000 records), starts the platform as `npm start` does and the bare
// baseline beside it on each dataset, measures the keyed endpoints with autocannon, and writes bench/results.md,
// bench/results.svg and bench/results.json. Sizes and durations: scripts/bench/options.ts (e.g. BENCH_SUBJECTS=500).
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { Endpoint, EndpointId, FloorId } from "./endpoints";
import { parseOptions, smallSubjects } from "./options";
import type { BenchResults, EndpointRun, FhirExportRun, FhirRun, ImportRun, PlatformPair, ReadProfile, ScaleOutRun, WebhookRun } from "./results";
import type { SeededDataset } from "./seed";
import type { RunningServer, ServerEnv } from "./servers";

const options = parseOptions(process.argv.slice(2), process.env);
// The bench process signs the feed subjects' saved cursors, so it shares the servers' secret; its own log is quiet.
process.env.CHARTKEY_SECRET ||= randomBytes(32).toString("base64url");
process.env.LOG_LEVEL ||= "warn";
const secret = process.env.CHARTKEY_SECRET;

const { buildIsFresh } = await import("@/lib/config");
const { closeDb, freePort } = await import("@/lib/db");
const { startBenchDatabase } = await import("./postgres");
const { reservePostgresCache } = await import("./postgres-cache");
const { postmasterPid, treeCpuSeconds } = await import("./process-cpu");
const { seedDataset } = await import("./seed");
const { startBaseline, startPlatform } = await import("./servers");
const { endpointPaths, floorPaths } = await import("./endpoints");
const { measure, measurePair, rewarmSeconds } = await import("./load");
const { assertFloorHoldsTheRecords, assertSameAnswer } = await import("./same-answer");
const { describeMachine, loadAverage, waitForQuiet } = await import("./machine");
const { writeResults } = await import("./write-results");
const { summarizeProfiles } = await import("./profile");
const { recordSystem, summarizePerf } = await import("./perf");
const { recordsPerSecond } = await import("./results");
const { explainRecordReads } = await import("./explain-reads");
const { copyFloor, exportFloorStatement, fhirSearchPaths, jsonCategoryPaths, processMemory, runExportClient, samePageRecords } = await import("./fhir");
const { startTsxProcess, stopProcesses } = await import("../tsx-process");

const benchStarted = performance.now();
/** A line of progress, after the seconds since the bench began (what each part takes, for a run that is too slow). */
const say = (line: string) => console.log(`[${((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4)} s] ${line}`);
// A quick run's halves are a second each: it measures the second halves without a rewarm, both sides of a pair alike.
const LOAD_SETTINGS = { connections: options.connections, duration: options.duration, warmup: options.warmup, ...(options.quick ? { rewarm: 0 } : {}) };
/** The 1-minute load average the imports wait for (the bench's own processes add about 2 once they run), at most so long. */
const QUIET_LOAD = 1;
const QUIET_WAIT_SECONDS = options.quick ? 5 : 150;
const startedAt = new Date();
const loadSamples: number[] = [loadAverage()];
const sampler = setInterval(() => loadSamples.push(loadAverage()), 15_000);
sampler.unref();
const workDir = path.resolve("bench-results");
await mkdir(workDir, { recursive: true });

say(`Bench (${options.parts.join(", ")}): ${options.subjects} subjects x ${options.recordsPerSubject} records, then ${options.smallRecords} records; ${options.connections} connections, ${options.duration} s per measurement`);
// The imports part starts no platform server, so it needs no build.
if (options.parts.some((part) => part !== "imports")) ensureBuild();

// The imports come first, once what ran before (the build, often) has left the cores, and before the bench's
// database reserves its cache (the kernel gathers gigabytes of huge pages for it): an import is one process's CPU.
// Two runs that began with the load average at 2.5 measured the 10k next import at 4,610 and 4,812 resources/s; the
// same code alone on the quiet machine minutes later, 5,510 and 5,777.
const { imports, importsQuiet } = options.parts.includes("imports") ? await runImportsWhenQuiet(options.importSizes) : { imports: [], importsQuiet: undefined };
const cache = reservePostgresCache(options.postgresCache);
const server = await startBenchDatabase(cache.memory).catch((error: unknown) => {
  cache.release();
  throw error;
});
say(`PostgreSQL (embedded) in ${server.dataDir}: shared_buffers ${server.cache.sharedBuffers}, huge pages ${server.cache.hugePages}`);
/** PostgreSQL's postmaster: its process tree's CPU is the database's share of the seed and of every request. */
const databasePid = postmasterPid(path.join(server.dataDir, "cluster"));
const running: { stop: () => Promise<void> }[] = [];
try {
  const large = await seed("large", options.subjects, options.feedSubjects);
  const explain = await explainRecordReads(large.url, { applicationId: large.data.applicationId, subjectId: large.data.subjects[0]! });
  const smallCount = smallSubjects(options);
  const small = await seed("small", smallCount, 1);

  const runs: EndpointRun[] = [];
  let pairs: PlatformPair[] | undefined;
  let readProfiles: ReadProfile[] | undefined;
  if (options.parts.includes("pages")) {
    const largeServers = await startServers("large", large.url, large.data, ["health", "app", "category", "feed", "snapshot"]);
    runs.push(...(await measureEndpoints(largeServers)));
    const smallServers = await startServers("small", small.url, small.data, ["category"]);
    runs.push(...(await measureEndpoints(smallServers)));
    pairs = await measurePlatformPairs(largeServers, smallServers);
    for (const servers of [largeServers, smallServers]) {
      for (const child of [servers.platform, servers.baseline]) {
        await child.stop();
        running.splice(running.indexOf(child), 1);
      }
    }
    // A quick run checks a change's figures; where the time goes is the full run's to say.
    if (!options.quick) readProfiles = await profileRecordReads(large.url, large.data);
  }
  const fhir = options.parts.includes("fhir") ? await runFhir(large, small) : undefined;

  const results: BenchResults = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    commit: commitOf(options.out),
    machine: describeMachine(),
    postgres: { ...server.cache, note: cache.note, databases: { large: await databaseSize(large.url), small: await databaseSize(small.url) } },
    settings: {
      connections: options.connections,
      duration: options.duration,
      warmup: options.warmup,
      rewarm: rewarmSeconds(LOAD_SETTINGS),
      seedConcurrency: options.seedConcurrency,
      recordsPerSubject: options.recordsPerSubject,
      interleaved: true,
    },
    seed: { large: large.seed, small: small.seed },
    seedLoad: { large: large.load, small: small.load },
    runs,
    loadSamples,
    quick: options.quick,
    imports,
    importsQuiet,
    webhooks: options.parts.includes("webhooks") ? runWebhookFanout(options.webhookEvents) : [],
    scaleOut: options.parts.includes("webhooks") ? runScaleOut(options.quick) : undefined,
    explain,
    pairs,
    readProfiles,
    fhir,
  };
  results.finishedAt = new Date().toISOString();
  results.loadSamples = [...loadSamples, loadAverage()];
  await writeResults(options.out, results);
  say(`Wrote ${path.relative(process.cwd(), path.resolve(options.out))}/results.md, results.svg and results.json`);
} finally {
  for (const child of running.reverse()) await child.stop().catch(() => {});
  await closeDb();
  await server.stop();
  cache.release();
}

async function seed(name: "large" | "small", subjects: number, feedSubjects: number) {
  const url = await server.database(`bench_${name}`);
  process.env.DATABASE_URL = url;
  say(`Seeding ${name}: ${subjects} subjects x ${options.recordsPerSubject} records...`);
  const load = loadAverage();
  const cpuBefore = { bench: process.cpuUsage(), database: treeCpuSeconds(databasePid) };
  const data = await seedDataset({ subjects, recordsPerSubject: options.recordsPerSubject, feedSubjects, concurrency: options.seedConcurrency }, say);
  const benchCpu = process.cpuUsage(cpuBefore.bench);
  const cpu = { bench: (benchCpu.user + benchCpu.system) / 1e6, database: treeCpuSeconds(databasePid) - cpuBefore.database };
  await closeDb();
  const vacuumStarted = performance.now();
  await vacuumAnalyze(url);
  const vacuum = (performance.now() - vacuumStarted) / 1000;
  const seedRun = { subjects, records: data.records, seconds: { ...data.seconds, vacuum }, cpu };
  say(
    `  ${data.records} records in ${data.seconds.imports.toFixed(1)} s of imports: ${Math.round(recordsPerSecond(seedRun))} records/s; CPU ${cpu.bench.toFixed(1)} s seed + ${cpu.database.toFixed(1)} s PostgreSQL (VACUUM ANALYZE and CHECKPOINT ${vacuum.toFixed(1)} s)`,
  );
  return { url, data, seed: seedRun, load };
}

/** A database's size on disk, as PostgreSQL writes it (pg_size_pretty): the report shows that the cache holds it. */
async function databaseSize(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ size: string }>("SELECT pg_size_pretty(pg_database_size(current_database())) AS size")).rows[0]!.size;
  } finally {
    await client.end();
  }
}

/** What a platform or baseline server is started with on a seeded database. */
function serverEnv(url: string): ServerEnv {
  return { databaseUrl: url, secret, authSecret: randomBytes(32).toString("base64url"), rateLimit: 1_000_000_000, dataDir: path.join(server.dataDir, "platform") };
}

/**
 * A dataset's platform and baseline, started, checked to answer alike on its endpoints, and warmed on them; they stay
 * up through the endpoints and the targets' pairs.
 */
type DatasetServers = { dataset: "large" | "small"; data: SeededDataset; endpoints: Endpoint[]; platform: RunningServer; baseline: RunningServer; headers: Record<string, string> };

async function startServers(dataset: "large" | "small", url: string, data: SeededDataset, ids: EndpointId[]): Promise<DatasetServers> {
  const env = serverEnv(url);
  say(`Starting the platform (npm start) and the baseline on the ${dataset} dataset...`);
  // Started side by side (neither is measured yet), each on a port of its own. Both starts are awaited even when one
  // fails, so the one that did start is in `running` before the run's cleanup stops everything there.
  const platformPort = await freePort();
  let baselinePort = await freePort();
  while (baselinePort === platformPort) baselinePort = await freePort();
  const starts = await Promise.allSettled([
    startPlatform(platformPort, env, path.join(workDir, `platform-${dataset}.log`)),
    startBaseline(baselinePort, env, path.join(workDir, `baseline-${dataset}.log`)),
  ]);
  for (const start of starts) if (start.status === "fulfilled") running.push(start.value);
  for (const start of starts) if (start.status === "rejected") throw start.reason;
  const [platform, baseline] = starts.map((start) => (start as PromiseFulfilledResult<RunningServer>).value) as [RunningServer, RunningServer];
  const headers = { Authorization: `Bearer ${data.apiKey}` };
  const endpoints = endpointPaths(data, ids);
  for (const endpoint of endpoints) await assertSameAnswer(platform.url, baseline.url, endpoint.paths[0]!, headers);
  // A fresh process runs its first requests unoptimized: before anything is measured, each server serves a mix of
  // every endpoint for a while (discarded), so the first endpoint measured is not the one that pays for warming.
  const mix = endpoints.flatMap((endpoint) => endpoint.paths.slice(0, 200));
  for (const { url: serverUrl } of [baseline, platform]) await measure({ url: serverUrl }, mix, headers, { ...LOAD_SETTINGS, duration: 2 * options.warmup, warmup: 0 });
  return { dataset, data, endpoints, platform, baseline, headers };
}

/** A server under load with CPU read from it and PostgreSQL. */
function probed(target: RunningServer) {
  return { url: target.url, probe: { serverPid: target.pid, databasePid } };
}

/** Each of the dataset's endpoints on its platform beside its baseline, as a pair (baseline first). */
async function measureEndpoints({ dataset, data, endpoints, platform, baseline, headers }: DatasetServers): Promise<EndpointRun[]> {
  const runs: EndpointRun[] = [];
  for (const endpoint of endpoints) {
    const {
      measurements: [onBaseline, onApp],
      loads: [baselineLoad, appLoad],
    } = await measurePair({ target: probed(baseline), paths: endpoint.paths, headers }, { target: probed(platform), paths: endpoint.paths, headers }, LOAD_SETTINGS);
    const run: EndpointRun = { id: endpoint.id, label: endpoint.label, dataset, records: data.records, app: onApp, baseline: onBaseline, load: { app: appLoad, baseline: baselineLoad } };
    runs.push(run);
    say(
      `  ${endpoint.label} (${data.records} records): app ${Math.round(onApp.requestsPerSecond)}/s p50 ${onApp.p50} ms p99 ${onApp.p99} ms; ` +
        `baseline ${Math.round(onBaseline.requestsPerSecond)}/s p50 ${onBaseline.p50} ms p99 ${onBaseline.p99} ms; ratio ${(onApp.requestsPerSecond / onBaseline.requestsPerSecond).toFixed(2)}` +
        (onApp.failures + onBaseline.failures > 0 ? ` (failures: app ${onApp.failures}, baseline ${onBaseline.failures})` : ""),
    );
  }
  return runs;
}

/**
 * The targets that compare the platform with itself, each measured as a pair (measurePair) on the platform servers
 * the endpoints were measured on: the category page and the snapshot against GET /app on the large dataset, each
 * followed by its floor against the same GET /app (what a server that only reads and forwards the records reaches),
 * and the category page on the large dataset against the small.
 */
async function measurePlatformPairs(large: DatasetServers, small: DatasetServers): Promise<PlatformPair[]> {
  say("The targets' pairs, platform against platform, and the reads' floors against GET /app...");
  const side = ({ data, endpoints, platform, headers }: DatasetServers, id: EndpointId) => {
    const endpoint = endpoints.find((candidate) => candidate.id === id);
    if (!endpoint) throw new Error(`the ${id} endpoint was not started on this dataset's servers`);
    return { endpoint, records: data.records, load: { target: probed(platform), paths: endpoint.paths, headers } };
  };
  const [app, category, snapshot] = [side(large, "app"), side(large, "category"), side(large, "snapshot")];
  // A read's floor is served by the baseline, keyless, over the same subjects as the read, and moves its records.
  const floor = async (id: FloorId, read: typeof category) => {
    const endpoint = floorPaths(large.data, id);
    await assertFloorHoldsTheRecords(large.platform.url, large.baseline.url, read.endpoint.paths[0]!, endpoint.paths[0]!, large.headers);
    return { endpoint, records: large.data.records, load: { target: probed(large.baseline), paths: endpoint.paths, headers: {} } };
  };
  const plan = [
    ["category-vs-app", category, app],
    ["category-floor-vs-app", await floor("category-floor", category), app],
    ["snapshot-vs-app", snapshot, app],
    ["snapshot-floor-vs-app", await floor("snapshot-floor", snapshot), app],
    ["category-large-vs-small", category, side(small, "category")],
  ] as const;
  const pairs: PlatformPair[] = [];
  for (const [id, first, second] of plan) {
    const { measurements, loads } = await measurePair(first.load, second.load, LOAD_SETTINGS);
    const asSide = (which: typeof first, index: 0 | 1) => ({ id: which.endpoint.id, label: which.endpoint.label, records: which.records, measurement: measurements[index], load: loads[index] });
    const pair = { id, first: asSide(first, 0), second: asSide(second, 1) };
    pairs.push(pair);
    const [one, other] = [pair.first.measurement, pair.second.measurement];
    say(`  ${id}: ${Math.round(one.requestsPerSecond)}/s p50 ${one.p50} ms vs ${Math.round(other.requestsPerSecond)}/s p50 ${other.p50} ms; ratio ${(one.requestsPerSecond / other.requestsPerSecond).toFixed(2)}`);
  }
  return pairs;
}

/**
 * Where a category page's and a snapshot's time goes, in a pass of its own after every measurement (a profiler
 * slows what it profiles): for each, a fresh platform on the large dataset under `--cpu-prof`, warmed, then loaded
 * as a measurement is while `perf` samples the whole machine; the platform's profile, and the platform's and
 * PostgreSQL's samples by symbol.
 */
async function profileRecordReads(url: string, data: SeededDataset): Promise<ReadProfile[]> {
  say("Profiling the category page and the snapshot (a pass of its own, not measured)...");
  const headers = { Authorization: `Bearer ${data.apiKey}` };
  const profiles: ReadProfile[] = [];
  for (const endpoint of endpointPaths(data, ["category", "snapshot"])) {
    const dir = path.join(workDir, `profile-${endpoint.id}`);
    await rm(dir, { recursive: true, force: true });
    const platform = await startPlatform(await freePort(), serverEnv(url), path.join(workDir, `platform-profile-${endpoint.id}.log`), dir);
    running.push(platform);
    await measure({ url: platform.url }, endpoint.paths, headers, { ...LOAD_SETTINGS, duration: 2 * options.warmup, warmup: 0 });
    const perfFile = path.join(workDir, `perf-${endpoint.id}.data`);
    const recording = await recordSystem(perfFile);
    const load = await measure({ url: platform.url }, endpoint.paths, headers, { ...LOAD_SETTINGS, warmup: 0 }).finally(() => ("stop" in recording ? recording.stop() : undefined));
    // The profile is written as the platform exits.
    await platform.stop();
    running.splice(running.indexOf(platform), 1);
    const postgres = "stop" in recording ? summarizePerf(perfFile, { command: "postgres" }) : recording;
    const serverPerf = "stop" in recording ? summarizePerf(perfFile, { pid: platform.pid, name: "the platform process" }) : recording;
    await rm(perfFile, { force: true });
    profiles.push({ id: endpoint.id, label: endpoint.label, requestsPerSecond: load.requestsPerSecond, server: summarizeProfiles(dir), serverPerf, postgres });
    say(`  ${endpoint.label}: profiled at ${Math.round(load.requestsPerSecond)}/s${"unavailable" in postgres ? `; PostgreSQL not sampled: ${postgres.unavailable}` : ""}`);
  }
  return profiles;
}

async function vacuumAnalyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("VACUUM (ANALYZE)");
    // The seed's dirty pages (gigabytes, in a cache that holds them) written now rather than by the checkpointer,
    // spread over the next minutes, while some endpoint is being measured and not another.
    await client.query("CHECKPOINT");
  } finally {
    await client.end();
  }
}

type Seeded = Awaited<ReturnType<typeof seed>>;

/**
 * The FHIR section (issue 52, point 5; scripts/bench/fhir.ts): on a platform of its own on the large dataset, the
 * labs page as FHIR against the JSON category page, measured as a pair once both are checked to hold the same
 * records; then a whole Bulk Data export of each dataset (large, then small) by a worker process of its own beside a
 * bare COPY of the same rows, and the worker's peak RSS.
 */
async function runFhir(large: Seeded, small: Seeded): Promise<FhirRun> {
  const startedAt = new Date().toISOString();
  const loads = [loadAverage()];
  say("FHIR: the labs page as FHIR beside the JSON category page (large dataset)...");
  const platform = await startSectionPlatform("fhir-large", large.url);
  const headers = { Authorization: `Bearer ${large.data.apiKey}` };
  const [json, fhirPaths] = [jsonCategoryPaths(large.data.subjects), fhirSearchPaths(large.data.subjects)];
  const read = async (requestPath: string) => {
    const response = await fetch(platform.url + requestPath, { headers });
    if (response.status !== 200) throw new Error(`${requestPath} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    return response.json() as Promise<never>;
  };
  for (let index = 0; index < Math.min(5, json.length); index++) {
    if (!samePageRecords(await read(json[index]!), await read(fhirPaths[index]!))) throw new Error(`${fhirPaths[index]} does not hold the records of ${json[index]}, in their order`);
  }
  const mix = json.slice(0, 200).flatMap((jsonPath, index) => [jsonPath, fhirPaths[index]!]);
  await measure({ url: platform.url }, mix, headers, { ...LOAD_SETTINGS, duration: 2 * options.warmup, warmup: 0 });
  const {
    measurements: [onJson, onFhir],
    loads: [jsonLoad, fhirLoad],
  } = await measurePair({ target: probed(platform), paths: json, headers }, { target: probed(platform), paths: fhirPaths, headers }, LOAD_SETTINGS);
  say(`  JSON ${Math.round(onJson.requestsPerSecond)}/s p50 ${onJson.p50} ms; FHIR ${Math.round(onFhir.requestsPerSecond)}/s p50 ${onFhir.p50} ms; ratio ${(onFhir.requestsPerSecond / onJson.requestsPerSecond).toFixed(2)}`);
  loads.push(loadAverage());
  const exports = [await measureExport("large", large, platform)];
  await stopSectionServer(platform);
  loads.push(loadAverage());
  const smallPlatform = await startSectionPlatform("fhir-small", small.url);
  exports.unshift(await measureExport("small", small, smallPlatform));
  await stopSectionServer(smallPlatform);
  loads.push(loadAverage());
  const side = (label: string, measurement: typeof onJson, load: number) => ({ label, records: large.data.records, measurement, load });
  return {
    measured: { startedAt, finishedAt: new Date().toISOString(), commit: commitOf(options.out), loads },
    search: { json: side("GET /users/{subject}/records/labs?limit=50", onJson, jsonLoad), fhir: side("GET /fhir/Observation?patient={subject}&category=laboratory&_count=50", onFhir, fhirLoad) },
    exports,
  };
}

async function startSectionPlatform(name: string, url: string): Promise<RunningServer> {
  const platform = await startPlatform(await freePort(), serverEnv(url), path.join(workDir, `platform-${name}.log`));
  running.push(platform);
  return platform;
}

async function stopSectionServer(child: { stop: () => Promise<void> }): Promise<void> {
  await child.stop();
  running.splice(running.indexOf(child), 1);
}

/** A whole export of the dataset's consented subjects (fhir.ts, runExportClient) by a fresh worker process, between two runs of its COPY floor. */
async function measureExport(dataset: "large" | "small", seeded: Seeded, platform: RunningServer): Promise<FhirExportRun> {
  say(`FHIR: a whole Bulk Data export of the ${dataset} dataset (${seeded.data.records} records)...`);
  const statement = exportFloorStatement(seeded.data.applicationId);
  const floors = [await copyFloor(seeded.url, statement)];
  say(`  COPY floor: ${floors[0]!.rows} rows, ${Math.round(floors[0]!.bytes / 1048576)} MiB in ${floors[0]!.seconds.toFixed(1)} s`);
  const env = { DATABASE_URL: seeded.url, CHARTKEY_SECRET: secret, CHARTKEY_DATA_DIR: path.join(server.dataDir, "platform"), LOG_LEVEL: "warn", NODE_ENV: "production" };
  const worker = await startTsxProcess("scripts/worker.ts", env, /Chartkey worker running/);
  const stoppable = { stop: () => stopProcesses([worker.child]) };
  running.push(stoppable);
  const pid = worker.child.pid!;
  const before = processMemory(pid);
  const load = loadAverage();
  const client = await runExportClient(platform.url, seeded.data.apiKey);
  const peak = processMemory(pid).peakMiB;
  await stopSectionServer(stoppable);
  floors.push(await copyFloor(seeded.url, statement));
  const run: FhirExportRun = { dataset, records: seeded.data.records, ...client, floors, rssBeforeMiB: before.rssMiB, peakRssMiB: peak, load };
  say(
    `  export: ${client.resources} resources in ${client.files} files (${Math.round(client.bytes / 1048576)} MiB) in ${client.seconds.toFixed(1)} s (manifest after ${client.kickOffToManifest.toFixed(1)} s); ` +
      `COPY ${floors.map((each) => `${each.seconds.toFixed(1)} s`).join(", ")}; worker RSS ${Math.round(before.rssMiB)} MiB at start, peak ${Math.round(peak)} MiB`,
  );
  if (client.resources !== floors[0]!.rows) say(`  note: the export wrote ${client.resources} resources, the floor read ${floors[0]!.rows} rows`);
  return run;
}

/** The platform runs the production build; build it first (timed apart from everything measured) when stale. */
function ensureBuild(): void {
  if (buildIsFresh()) return;
  say("Building (next build)...");
  const started = performance.now();
  const result = spawnSync(path.resolve("node_modules/.bin/next"), ["build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error("next build failed");
  // The build's hundreds of megabytes are written out now, not by the kernel during the first measurements.
  spawnSync("sync");
  say(`  built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** The commit measured, marked when files other than the results this run replaces (in `out`) differ from it. */
function commitOf(out: string): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const results = path.relative(process.cwd(), path.resolve(out));
    const inside = results !== "" && !results.startsWith("..") && !path.isAbsolute(results);
    const paths = inside ? ["--", ".", `:(exclude)${results}`] : [];
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no", ...paths], { encoding: "utf8" }).trim() !== "";
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return "unknown";
  }
}

/**
 * Runs a bench script in a process of its own (so its memory is its own) and returns the JSON of its `RESULT` line:
 * the platform's log lines share its standard output and may follow it (a queue client's goodbye, say).
 */
function runScript(script: string, args: string[], env: Record<string, string>): string {
  const run = spawnSync(process.execPath, ["--import", "tsx", script, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
  if (run.status !== 0) throw new Error(`${script} failed (exit ${run.status}):\n${run.stderr.trim().slice(-2000)}`);
  const result = run.stdout.split("\n").findLast((line) => line.startsWith("RESULT "));
  if (!result) throw new Error(`${script} printed no RESULT line:\n${run.stdout.trim().slice(-2000)}`);
  return result.slice("RESULT ".length);
}

/** Whole-source imports of the long-history patient at each size (scripts/bench/import-throughput.ts). */
async function runImportsWhenQuiet(sizes: readonly number[]): Promise<Pick<BenchResults, "imports" | "importsQuiet">> {
  const quiet = await waitForQuiet(QUIET_LOAD, QUIET_WAIT_SECONDS);
  say(`Load average ${quiet.load} after waiting ${quiet.seconds} s (at most ${QUIET_WAIT_SECONDS} s) for it to fall below ${QUIET_LOAD}`);
  const importsQuiet = { below: QUIET_LOAD, maxSeconds: QUIET_WAIT_SECONDS, waitedSeconds: quiet.seconds, load: quiet.load };
  const imports = sizes.map((size) => {
    say(`Import of a ${size}-resource long-history source...`);
    const run = JSON.parse(runScript("scripts/bench/import-throughput.ts", [String(size)], {})) as ImportRun;
    const phases = run.phases ? ` (fetch ${run.phases.fetch.toFixed(1)} s, normalize ${run.phases.normalize.toFixed(1)} s, write ${run.phases.write.toFixed(1)} s)` : "";
    say(`  ${Math.round(run.resourcesPerSecond)} resources/s${phases}, ${Math.round(run.recordsPerSecond)} records/s vs floor ${Math.round(run.floorRecordsPerSecond)} (${run.ratio.toFixed(2)}x), peak RSS ${Math.round(run.peakRssMiB)} MiB, load ${run.load}`);
    if (run.next) say(`  a worker's next import: ${Math.round(run.next.resourcesPerSecond)} resources/s (${run.next.ratio.toFixed(2)}x of the floor), load ${run.next.load}`);
    return run;
  });
  return { imports, importsQuiet };
}

/** The webhook fan-out at 1, 10 and 100 endpoints beside the bare sign-and-post loop (scripts/bench/webhook-fanout.ts). */
function runWebhookFanout(events: number): WebhookRun[] {
  say("Webhook fan-out...");
  let line: string;
  try {
    line = runScript("scripts/bench/webhook-fanout.ts", [], { WEBHOOK_FANOUT_EVENTS: String(events) });
  } catch (error) {
    // The endpoints measured so far are still written; the report then has no fan-out section.
    say(`  the fan-out failed: ${(error as Error).message}`);
    return [];
  }
  const runs = JSON.parse(line) as WebhookRun[];
  for (const run of runs) say(`  ${run.endpoints} endpoint(s): ${Math.round(run.platform)} deliveries/s vs bare ${Math.round(run.bare)} (${run.ratio.toFixed(2)}x)`);
  return runs;
}

/** Two app instances and two workers on one PostgreSQL (scripts/bench/scale-out.ts); a quick run imports and delivers less. */
function runScaleOut(quick: boolean): ScaleOutRun | undefined {
  say("Scale-out: two app processes, two workers...");
  try {
    const line = runScript("scripts/bench/scale-out.ts", [], quick ? { SCALE_OUT_SOURCES: "4", SCALE_OUT_DELIVERIES: "1000" } : {});
    const run = JSON.parse(line) as ScaleOutRun;
    say(`  rate limit ${run.rateLimit.admitted}/${run.rateLimit.sent} admitted at ${run.rateLimit.limit}; ${run.imports.sourcesImportedOnce}/${run.imports.sources} sources imported once; ${run.deliveries.receivedOnce}/${run.deliveries.queued} delivered once at ${Math.round(run.deliveries.perSecond)}/s`);
    return run;
  } catch (error) {
    // The figures measured so far are still written; the report then has no scale-out run.
    say(`  the scale-out run failed: ${(error as Error).message}`);
    return undefined;
  }
}

