// `npm run bench`: seeds a fresh embedded PostgreSQL through the write path (1,000,000 records across 10,000
// subjects by default, and a second dataset of 10,000 records), starts the platform as `npm start` does and the bare
// baseline beside it on each dataset, measures the keyed endpoints with autocannon, and writes bench/results.md,
// bench/results.svg and bench/results.json. Sizes and durations: scripts/bench/options.ts (e.g. BENCH_SUBJECTS=500).
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { EndpointId } from "./endpoints";
import { parseOptions, smallSubjects, type BenchOptions } from "./options";
import type { BenchResults, EndpointRun } from "./results";
import type { SeededDataset } from "./seed";

const options = parseOptions(process.argv.slice(2), process.env);
// The bench process signs the feed subjects' saved cursors, so it shares the servers' secret; its own log is quiet.
process.env.CHARTKEY_SECRET ||= randomBytes(32).toString("base64url");
process.env.LOG_LEVEL ||= "warn";
const secret = process.env.CHARTKEY_SECRET;

const { buildIsFresh } = await import("@/lib/config");
const { closeDb, freePort } = await import("@/lib/db");
const { startBenchDatabase } = await import("./postgres");
const { seedDataset } = await import("./seed");
const { startBaseline, startPlatform } = await import("./servers");
const { endpointPaths } = await import("./endpoints");
const { measure } = await import("./load");
const { assertSameAnswer } = await import("./same-answer");
const { describeMachine, loadAverage } = await import("./machine");
const { renderReport } = await import("./report");
const { renderChart } = await import("./chart");
const { recordsPerSecond } = await import("./results");

const say = (line: string) => console.log(line);
const startedAt = new Date();
const loadSamples: number[] = [loadAverage()];
const sampler = setInterval(() => loadSamples.push(loadAverage()), 15_000);
sampler.unref();
const workDir = path.resolve("bench-results");
await mkdir(workDir, { recursive: true });

say(`Bench: ${options.subjects} subjects x ${options.recordsPerSubject} records, then ${options.smallRecords} records; ${options.connections} connections, ${options.duration} s per measurement`);
ensureBuild();

const server = await startBenchDatabase();
say(`PostgreSQL (embedded) in ${server.dataDir}`);
const running: { stop: () => Promise<void> }[] = [];
try {
  const large = await seed("large", options.subjects, options.feedSubjects);
  const smallCount = smallSubjects(options);
  const small = await seed("small", smallCount, 1);

  const runs: EndpointRun[] = [];
  runs.push(...(await measureDataset("large", large.url, large.data, ["health", "app", "category", "feed", "snapshot"])));
  runs.push(...(await measureDataset("small", small.url, small.data, ["category"])));

  const results: BenchResults = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    commit: commitOf(),
    machine: describeMachine(),
    settings: {
      connections: options.connections,
      duration: options.duration,
      warmup: options.warmup,
      seedConcurrency: options.seedConcurrency,
      recordsPerSubject: options.recordsPerSubject,
    },
    seed: { large: large.seed, small: small.seed },
    runs,
    loadSamples: [...loadSamples, loadAverage()],
  };
  await writeResults(options, results);
  await appendWebhookFanout(options);
} finally {
  for (const child of running.reverse()) await child.stop().catch(() => {});
  await closeDb();
  await server.stop();
}

async function seed(name: "large" | "small", subjects: number, feedSubjects: number) {
  const url = await server.database(`bench_${name}`);
  process.env.DATABASE_URL = url;
  say(`Seeding ${name}: ${subjects} subjects x ${options.recordsPerSubject} records...`);
  const data = await seedDataset({ subjects, recordsPerSubject: options.recordsPerSubject, feedSubjects, concurrency: options.seedConcurrency }, say);
  await closeDb();
  const vacuumStarted = performance.now();
  await vacuumAnalyze(url);
  const vacuum = (performance.now() - vacuumStarted) / 1000;
  const seedRun = { subjects, records: data.records, seconds: { ...data.seconds, vacuum } };
  say(`  ${data.records} records in ${data.seconds.imports.toFixed(1)} s of imports: ${Math.round(recordsPerSecond(seedRun))} records/s (VACUUM ANALYZE ${vacuum.toFixed(1)} s)`);
  return { url, data, seed: seedRun };
}

async function measureDataset(dataset: "large" | "small", url: string, data: SeededDataset, ids: EndpointId[]): Promise<EndpointRun[]> {
  const env = { databaseUrl: url, secret, authSecret: randomBytes(32).toString("base64url"), rateLimit: 1_000_000_000, dataDir: path.join(server.dataDir, "platform") };
  const profileDir = options.cpuProfile ? path.join(workDir, `profile-${dataset}`) : undefined;
  say(`Starting the platform (npm start) and the baseline on the ${dataset} dataset...`);
  const platform = await startPlatform(await freePort(), env, path.join(workDir, `platform-${dataset}.log`), profileDir);
  running.push(platform);
  const baseline = await startBaseline(await freePort(), env, path.join(workDir, `baseline-${dataset}.log`));
  running.push(baseline);
  const headers = { Authorization: `Bearer ${data.apiKey}` };
  const endpoints = endpointPaths(data, ids);
  const runs: EndpointRun[] = [];
  try {
    for (const endpoint of endpoints) await assertSameAnswer(platform.url, baseline.url, endpoint.paths[0]!, headers);
    const settings = { connections: options.connections, duration: options.duration, warmup: options.warmup };
    // A fresh process runs its first requests unoptimized: before anything is measured, each server serves a mix of
    // every endpoint for a while (discarded), so the first endpoint measured is not the one that pays for warming.
    const mix = endpoints.flatMap((endpoint) => endpoint.paths.slice(0, 200));
    for (const server of [baseline, platform]) await measure(server.url, mix, headers, { ...settings, duration: 2 * options.warmup, warmup: 0 });
    for (const endpoint of endpoints) {
      const baselineLoad = loadAverage();
      const onBaseline = await measure(baseline.url, endpoint.paths, headers, settings);
      const appLoad = loadAverage();
      const onApp = await measure(platform.url, endpoint.paths, headers, settings);
      const run: EndpointRun = { id: endpoint.id, label: endpoint.label, dataset, records: data.records, app: onApp, baseline: onBaseline, load: { app: appLoad, baseline: baselineLoad } };
      runs.push(run);
      say(
        `  ${endpoint.label} (${data.records} records): app ${Math.round(onApp.requestsPerSecond)}/s p50 ${onApp.p50} ms p99 ${onApp.p99} ms; ` +
          `baseline ${Math.round(onBaseline.requestsPerSecond)}/s p50 ${onBaseline.p50} ms p99 ${onBaseline.p99} ms; ratio ${(onApp.requestsPerSecond / onBaseline.requestsPerSecond).toFixed(2)}` +
          (onApp.failures + onBaseline.failures > 0 ? ` (failures: app ${onApp.failures}, baseline ${onBaseline.failures})` : ""),
      );
    }
  } finally {
    await platform.stop();
    await baseline.stop();
    running.splice(running.indexOf(platform), 1);
    running.splice(running.indexOf(baseline), 1);
  }
  return runs;
}

async function vacuumAnalyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("VACUUM (ANALYZE)");
  } finally {
    await client.end();
  }
}

/** The platform runs the production build; build it first (timed apart from everything measured) when stale. */
function ensureBuild(): void {
  if (buildIsFresh()) return;
  say("Building (next build)...");
  const started = performance.now();
  const result = spawnSync(path.resolve("node_modules/.bin/next"), ["build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error("next build failed");
  say(`  built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

function commitOf(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim() !== "";
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return "unknown";
  }
}

/**
 * The webhook fan-out figure (scripts/bench/webhook-fanout.ts: a 10,000-delivery backlog drained by the platform's
 * worker beside a bare sign-and-post loop, in one run), appended to results.md.
 */
async function appendWebhookFanout(options: BenchOptions): Promise<void> {
  say("Webhook fan-out...");
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/webhook-fanout.ts"], { encoding: "utf8", env: process.env });
  const output = run.status === 0 ? run.stdout.trim() : `failed (exit ${run.status}):\n${run.stderr.trim().slice(-2000)}`;
  say(output);
  await appendFile(path.join(path.resolve(options.out), "results.md"), `\n## Webhook fan-out\n\n\`\`\`\n${output}\n\`\`\`\n`);
}

async function writeResults(options: BenchOptions, results: BenchResults): Promise<void> {
  const out = path.resolve(options.out);
  await mkdir(out, { recursive: true });
  const beforeFile = path.join(out, "before", "results.json");
  const before = existsSync(beforeFile) ? (JSON.parse(await readFile(beforeFile, "utf8")) as BenchResults) : undefined;
  const note = before ? `Before: the run of ${before.startedAt} at commit \`${before.commit}\` (${path.relative(out, beforeFile)}), on the same machine with the same settings.` : "";
  await writeFile(path.join(out, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(path.join(out, "results.md"), renderReport(results, before ? { results: before, note } : undefined));
  await writeFile(path.join(out, "results.svg"), renderChart(results));
  say(`Wrote ${path.relative(process.cwd(), out)}/results.md, results.svg and results.json`);
}
