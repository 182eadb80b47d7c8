import type { PerfOutcome } from "./perf";
import type { BenchResults, EndpointRun, FhirRun, ImportRun, PairSide, PlatformPair, ReadProfile } from "./results";
import { evaluateTargets, exportFloor, exportRatio, ratio, recordsPerSecond } from "./results";
import { rewarmSeconds, type RequestCpu } from "./load";

const n = (value: number) => Math.round(value).toLocaleString("en-US");
const ms = (value: number) => `${value} ms`;
const datasetName = (run: EndpointRun) => `${n(run.records)} records`;
/** CPU milliseconds a request, process by process (server / PostgreSQL / client), and in all. */
const cpuSplit = (cpu: RequestCpu) => `${cpu.server.toFixed(2)} / ${cpu.database.toFixed(2)} / ${cpu.client.toFixed(2)}`;
const cpuTotal = (cpu: RequestCpu) => (cpu.server + cpu.database + cpu.client).toFixed(2);

/** When the imports began: once the machine was quiet, and how long this run waited for it. */
function quietWait(quiet: BenchResults["importsQuiet"]): string {
  if (!quiet) return "once the 1-minute load average was low";
  const waited = quiet.load >= quiet.below ? `it was still ${quiet.load} after ${quiet.waitedSeconds} s, and they began` : `they began at ${quiet.load} after ${quiet.waitedSeconds} s`;
  return `once the 1-minute load average is below ${quiet.below}, waiting at most ${quiet.maxSeconds} s: ${waited}`;
}

/** bench/results.md: the machine, the seed, every measurement beside its baseline, the targets; and, given an
 * earlier run, what changed since it. */
/** How each endpoint's two servers were measured, as the run's settings say. */
function measuredHow(settings: BenchResults["settings"]): string {
  if (!settings.interleaved) return `${settings.warmup} s warm-up then ${settings.duration} s measured per endpoint and server`;
  return (
    `${settings.duration} s measured per endpoint and server, in two halves interleaved with the other server's (baseline, platform, platform, baseline: a load on the shared machine that changes steadily over the pair weighs on both alike), ` +
    `${settings.warmup} s of warm-up before a server's first half and ${rewarmSeconds(settings)} s before its second; each server's figures are over both halves (latency percentiles of all their requests)`
  );
}

export function renderReport(results: BenchResults, before?: { results: BenchResults; note: string; webhookNote?: string }): string {
  const { machine, settings, seed } = results;
  const lines: string[] = [];
  lines.push("# `npm run bench` results", "");
  lines.push(`Run ${results.startedAt} – ${results.finishedAt} at commit \`${results.commit}\`.`, "");
  lines.push("## Machine", "");
  lines.push(`- CPU: ${machine.cpuModel}, ${machine.cpus} cores (os.cpus())`);
  lines.push(`- Memory: ${machine.memoryGiB} GiB`);
  lines.push(`- Node.js ${machine.node} on ${machine.platform}`);
  if (results.postgres) {
    const { note, sharedBuffers, hugePages, databases } = results.postgres;
    const sizes = databases ? `; the seeded databases: ${databases.large} (large) and ${databases.small} (small)` : "";
    lines.push(`- PostgreSQL (embedded): ${note}; the server reported shared_buffers ${sharedBuffers}, huge pages ${hugePages}${sizes}`);
  }
  const samples = results.loadSamples;
  if (samples.length > 0) {
    lines.push(`- 1-minute load average during the run: ${Math.min(...samples).toFixed(2)} to ${Math.max(...samples).toFixed(2)} (the bench itself, PostgreSQL and the server under test account for about 2 on this machine; more means other work shared it)`);
  }
  lines.push(
    "",
    `The machine is shared: other work ran beside this bench (see each load average; the bench, PostgreSQL and the server under test account for about 2), so absolute figures are depressed and noisy. Every figure stands beside a floor measured in the same run, and the ratios are the figures to read.${results.quick ? " This is a `--quick` run: every measurement at a small size, each pair's second halves without a rewarm, and no profile pass after them." : ""}`,
    "",
  );
  lines.push("## Targets", "");
  lines.push("| Target | Goal | Measured | Met |", "|---|---|---|---|");
  for (const target of evaluateTargets(results)) lines.push(`| ${target.name} | ${target.goal} | ${target.measured} | ${target.met ? "yes" : "**no**"} |`);
  lines.push("");
  if (results.imports && results.imports.length > 0) {
    lines.push("## Imports (a long-history patient, whole source, end to end)", "");
    lines.push(
      `\`scripts/bench/import-throughput.ts\`, one process per size, run before anything else (${quietWait(results.importsQuiet)}; before the endpoints' database reserves its cache): a sandbox key simulates a Connect session with the \`long-history\` scenario (ten years of repeated visits grown from the baseline-adult scenario Bundle, its patient grown to the size) against the synthetic health system's route files served over HTTP by a process of its own (\`scripts/bench/import-ehr.ts\`, its patient's resources generated, and the text it serves of each written, before the import starts); first, as in any worker that has imported before, one import of another patient (baseline-adult, for another application) runs the same code once; then the simulation's import is timed from its start to its finish (every search page fetched through the SMART client, parsed, normalized, merged, records, changes and counters written in one transaction, the \`records.updated\` event), then the source is imported again (the re-run writes nothing); then a worker's next import: five more patients of the same size, each for another application, timed the same way one after another (a floor run after each, below), the median reported (the process warm and its heap grown by the first import, as a worker importing source after source meets most imports; on this virtual machine every fresh page of memory is a fault of about 13 µs, and the first import faults in a few hundred megabytes). Phases: reading every page, normalizing, writing (hashing, the merge with the stored records, COPY of records and changes, counters). Floor: the same record and change rows written for another subject by a bare \`COPY ... FROM STDIN\` per table, no logic, in the same process, five times, each for another subject right after one of a worker's next imports (below), so a load on the shared machine that changes over those imports weighs on the floor alike, the median reported. Importer CPU: the importing process's CPU seconds (every thread, the collector's included) over the simulation that ran the import, sign-in included; it moves far less than wall time with other work on the machine. The importing process runs with a worker process's heap settings (\`lib/jobs/heap-growth.ts\`: V8's heap kept within half its live size between full collections). Peak RSS is the importing process's (the health system's held resources are in its own process), read right after the first import; the peak after the re-run, which holds the source again before the first import's garbage is collected, is beside it.`,
      "",
    );
    const phases = (run: { phases?: ImportRun["phases"] }) => (run.phases ? `${run.phases.fetch.toFixed(1)}, ${run.phases.normalize.toFixed(1)}, ${run.phases.write.toFixed(1)} s` : "–");
    lines.push("| Resources | Records | Import | Fetch, normalize, write | Importer CPU | Resources/s | Records/s | Floor records/s | Import / floor | Re-run | Peak RSS (before; after the re-run) | Load |");
    lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const run of results.imports) {
      lines.push(
        `| ${n(run.resources)} | ${n(run.records)} | ${run.seconds.toFixed(1)} s | ${phases(run)} | ${run.cpuSeconds === undefined ? "–" : `${run.cpuSeconds.toFixed(1)} s`} | **${n(run.resourcesPerSecond)}** | ${n(run.recordsPerSecond)} | ${n(run.floorRecordsPerSecond)} | **${run.ratio.toFixed(2)}×** | ${run.rerunSeconds.toFixed(1)} s | ${n(run.peakRssMiB)} MiB (${n(run.rssBeforeMiB)}${run.peakRssAfterRerunMiB === undefined ? "" : `; ${n(run.peakRssAfterRerunMiB)}`}) | ${run.load} |`,
      );
    }
    lines.push("");
    const nextRuns = results.imports.filter((run) => run.next);
    if (nextRuns.length > 0) {
      lines.push("A worker's next import (the median of five more patients of the same size, right after the first):", "");
      lines.push("| Resources | Import | Fetch, normalize, write | Importer CPU | Resources/s | Records/s | Import / floor | Load |");
      lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|");
      for (const run of nextRuns) {
        const next = run.next!;
        lines.push(`| ${n(run.resources)} | ${next.seconds.toFixed(1)} s | ${phases(next)} | ${next.cpuSeconds.toFixed(1)} s | **${n(next.resourcesPerSecond)}** | ${n(next.recordsPerSecond)} | **${next.ratio.toFixed(2)}×** | ${next.load} |`);
      }
      lines.push("");
    }
  }
  lines.push("## Seed (through the write path)", "");
  lines.push("| Dataset | Subjects | Records | Subject rows | Receipts and imports (normalize, write) | Records/s | CPU: seed + PostgreSQL | Records per CPU second | VACUUM ANALYZE and CHECKPOINT after | Load |");
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const [name, run] of [["large", seed.large], ["small", seed.small]] as const) {
    const cpu = run.cpu ? `${run.cpu.bench.toFixed(1)} + ${run.cpu.database.toFixed(1)} s` : "–";
    const perCpu = run.cpu ? n(run.records / (run.cpu.bench + run.cpu.database)) : "–";
    lines.push(
      `| ${n(run.records)} records | ${n(run.subjects)} | ${n(run.records)} | ${run.seconds.setup.toFixed(1)} s | ${run.seconds.imports.toFixed(1)} s | **${n(recordsPerSecond(run))}** | ${cpu} | ${perCpu} | ${run.seconds.vacuum.toFixed(1)} s | ${results.seedLoad?.[name] ?? "–"} |`,
    );
  }
  lines.push("");
  lines.push(
    `Each subject: one source, an active receipt, ${settings.recordsPerSubject} records from a scenario Bundle with earlier results of its tests added, normalized with the subject as scope; the receipts and first imports are written 50 subjects per transaction, the rows \`grantReceipt\` and \`applySourceFacts\` write (\`scripts/bench/seed-batch.ts\`), ${settings.seedConcurrency} batches at a time. Feed subjects are imported twice: their labs changeCursor is saved after the first import, and the second goes through \`applySourceFacts\` itself. CPU is read from /proc over the seed (subject rows included): the bench process's and PostgreSQL's (server and backends); records per CPU second does not depend on what else shared the machine, and on two cores the seed's records/s can be at most twice it.`,
    "",
  );
  lines.push("## Endpoints", "");
  lines.push(
    `autocannon, ${settings.connections} connections, ${measuredHow(settings)}, after each freshly started server has served a mix of all endpoints for twice the warm-up; requests rotate across subjects. Platform: \`npm start\` (production build). Baseline: \`scripts/bench/baseline-server.ts\`. \`GET /health\` is a reference, not a target: no key, one \`SELECT 1\`, so its platform figure is about what Next.js and the route kit cost for any operation.`,
    "",
  );
  lines.push("| Endpoint | Dataset | App req/s | App p50 | App p99 | Baseline req/s | Baseline p50 | Baseline p99 | App / baseline | Load (app, baseline), as each began |");
  lines.push("|---|---|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const run of results.runs) {
    const failures = run.app.failures + run.baseline.failures;
    lines.push(
      `| ${run.label} | ${datasetName(run)} | ${n(run.app.requestsPerSecond)} | ${ms(run.app.p50)} | ${ms(run.app.p99)} | ${n(run.baseline.requestsPerSecond)} | ${ms(run.baseline.p50)} | ${ms(run.baseline.p99)} | **${ratio(run).toFixed(2)}×** | ${run.load.app}, ${run.load.baseline}${failures > 0 ? ` (${failures} non-2xx/errors!)` : ""} |`,
    );
  }
  lines.push("");
  lines.push(...requestCpuTable(results.runs));
  lines.push(...pairsSection(results.pairs));
  if (results.explain) {
    lines.push(
      "### Where a records read's time goes: PostgreSQL",
      "",
      "`EXPLAIN (ANALYZE, BUFFERS, SERIALIZE)` of the one statement a category page and a snapshot run (the active receipt and the sections it covers, `lib/users/consented-sections.ts`) on the large dataset; `Serialization` is what writing the rows out costs the server (each record's data is stored as `json`, the text the API serves, so it is sent as stored). The platform sends the statement as a named prepared statement: it is first run that way until PostgreSQL's plan cache has chosen between planning each execution and its cached generic plan, and the plan explained is the one chosen, already cached (its `Planning Time` is what a served page pays for planning):",
      "",
      "```",
      results.explain,
      "```",
      "",
    );
  }
  if (results.readProfiles && results.readProfiles.length > 0) lines.push(...readProfileLines(results.readProfiles));
  lines.push(...fhirSection(results.fhir));
  if (results.webhooks && results.webhooks.length > 0) {
    lines.push("## Webhook fan-out", "");
    lines.push(
      "`scripts/bench/webhook-fanout.ts`: per endpoint count, a backlog of pending deliveries spread over that many applications, each with its own local receiver, drained by one worker (batched claims of due delivery rows, signing, POST over keep-alive, attempt log); beside it the bare loop signs and posts the same payloads to the same receivers, 200 at a time, no queue or database.",
      "",
    );
    lines.push("| Endpoints | Worker processes | Deliveries (received, attempts logged) | Platform deliveries/s | Bare loop deliveries/s | Platform / bare | CPU ms per delivery: worker + PostgreSQL (bare loop) | Load (platform, bare) |");
    lines.push("|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const run of results.webhooks) {
      const cpu = run.cpuMs ? `${run.cpuMs.platform.worker.toFixed(2)} + ${run.cpuMs.platform.database.toFixed(2)} (${run.cpuMs.bare.toFixed(2)})` : "–";
      lines.push(
        `| ${run.endpoints} | ${run.workers ?? 1} | ${n(run.events)} (${run.received ?? "–"}, ${run.attempts ?? "–"}) | **${n(run.platform)}** | ${n(run.bare)} | **${run.ratio.toFixed(2)}×** | ${cpu} | ${run.load.platform}, ${run.load.bare} |`,
      );
    }
    lines.push(
      "",
      "CPU per delivery is read from /proc over the drain, so it holds whatever else shares the machine: the worker's column is the bench's processes (worker and receivers), PostgreSQL's its server and backends; the bare loop's is the loop and the same receivers. On two cores, one delivery per 1 ms of CPU in all is at most 2,000 deliveries/s with the machine to itself.",
      "",
    );
  }
  if (before) {
    lines.push(
      "## Before and after",
      "",
      `${before.note} The baseline runs in both, so the ratio is the comparison to read: other work on the machine moves absolute figures between runs (see the load averages of each).`,
      "",
    );
    lines.push("| Endpoint | Dataset | Before: app req/s (p50) | After: app req/s (p50) | Before: baseline req/s | After: baseline req/s | Before: app / baseline | After: app / baseline |");
    lines.push("|---|---|---:|---:|---:|---:|---:|---:|");
    for (const run of results.runs) {
      const earlier = before.results.runs.find((candidate) => candidate.id === run.id && candidate.dataset === run.dataset);
      if (!earlier) continue;
      lines.push(
        `| ${run.label} | ${datasetName(run)} | ${n(earlier.app.requestsPerSecond)} (${ms(earlier.app.p50)})${earlier.records === run.records ? "" : ` at ${datasetName(earlier)}`} | ${n(run.app.requestsPerSecond)} (${ms(run.app.p50)}) | ${n(earlier.baseline.requestsPerSecond)} | ${n(run.baseline.requestsPerSecond)} | ${ratio(earlier).toFixed(2)}× | ${ratio(run).toFixed(2)}× |`,
      );
    }
    lines.push("");
    lines.push("| Write path | Before | After |", "|---|---:|---:|");
    lines.push(`| Bench seed, records/s (${n(before.results.seed.large.records)} → ${n(seed.large.records)} records) | ${n(recordsPerSecond(before.results.seed.large))} | ${n(recordsPerSecond(seed.large))} |`);
    for (const run of results.imports ?? []) {
      const earlier = before.results.imports?.find((candidate) => candidate.resources === run.resources);
      const figure = (imported: { resourcesPerSecond: number; ratio: number }) => `${n(imported.resourcesPerSecond)} (${imported.ratio.toFixed(2)}×)`;
      lines.push(`| Import, ${n(run.resources)} resources, first in a fresh process: resources/s (× floor) | ${earlier ? figure(earlier) : "–"} | ${figure(run)} |`);
      if (run.next) lines.push(`| Import, ${n(run.resources)} resources, a worker's next: resources/s (× floor) | ${earlier?.next ? figure(earlier.next) : "–"} | ${figure(run.next)} |`);
    }
    for (const run of results.webhooks ?? []) {
      const earlier = before.results.webhooks?.find((candidate) => candidate.endpoints === run.endpoints && (candidate.workers ?? 1) === (run.workers ?? 1));
      lines.push(`| Webhook fan-out, ${run.endpoints} endpoint(s)${(run.workers ?? 1) > 1 ? `, ${run.workers} worker processes` : ""}: deliveries/s (× bare) | ${earlier ? `${n(earlier.platform)} (${earlier.ratio.toFixed(2)}×)` : run.endpoints === 1 && before.webhookNote ? before.webhookNote : "–"} | ${n(run.platform)} (${run.ratio.toFixed(2)}×) |`);
    }
    lines.push("");
  }
  const scaled = (results.webhooks ?? []).filter((run) => (run.workers ?? 1) > 1);
  const scaleOut = results.scaleOut;
  if (scaleOut || scaled.length > 0) {
    lines.push("## Two app processes, two workers, one PostgreSQL", "");
    if (scaleOut) {
      const { rateLimit, imports, deliveries } = scaleOut;
      lines.push(
        `\`scripts/bench/scale-out.ts\`: ${scaleOut.instances} app instances (the platform's route handlers, CHARTKEY_WORKER=off) and ${scaleOut.workers} workers (\`scripts/worker.ts\`, as \`npm run worker\` runs it), each its own process, on one PostgreSQL.`,
        "",
        `- Rate limit: one key limited to ${rateLimit.limit} requests a minute, sent ${rateLimit.sent} requests alternately to both instances at once: ${rateLimit.admitted} admitted, ${rateLimit.refused} refused${rateLimit.admitted === rateLimit.limit ? " (exact across instances)" : ""} (load ${rateLimit.load}).`,
        `- Imports: ${imports.sources} sources connected through Connect, queued at once: ${imports.imports} imports (${imports.completed} completed; ${imports.sourcesImportedOnce} of ${imports.sources} sources imported exactly once), ${n(imports.records)} records and ${n(imports.changes)} feed entries, in ${imports.seconds.toFixed(1)} s (load ${imports.load}).`,
        `- Deliveries: ${n(deliveries.queued)} queued to ten receivers, drained by both workers at ${n(deliveries.perSecond)}/s; ${n(deliveries.received)} received (${n(deliveries.receivedOnce)} webhook-ids exactly once), ${n(deliveries.attempts)} attempts logged; CPU per delivery ${deliveries.cpuMs.workers.toFixed(2)} ms in the bench's processes (both workers, both instances, the receivers) and ${deliveries.cpuMs.database.toFixed(2)} ms in PostgreSQL. The imports' own ${deliveries.importEvents} records.updated events: ${deliveries.importEventsDelivered} delivered exactly once (load ${deliveries.load}).`,
      );
    }
    for (const run of scaled) {
      const single = results.webhooks!.find((candidate) => candidate.endpoints === run.endpoints && (candidate.workers ?? 1) === 1);
      lines.push(
        `- Webhook fan-out to ${run.endpoints} endpoints drained by ${run.workers} worker processes: ${n(run.platform)} deliveries/s${single ? ` (one worker: ${n(single.platform)}/s)` : ""}; ${n(run.events)} queued, ${run.received ?? "–"} received, ${run.attempts ?? "–"} attempts logged${run.received === run.events && run.attempts === run.events ? ": every delivery made once, none lost" : ""} (load ${run.load.platform}).`,
      );
    }
    lines.push("");
  }
  lines.push("![requests per second, app and baseline](results.svg)", "");
  return lines.join("\n");
}

/** The FHIR section (issue 52, point 5): the search page against the JSON page, the export against COPY, the worker's memory. */
export function fhirSection(fhir: FhirRun | undefined): string[] {
  if (!fhir) return [];
  const { measured, search } = fhir;
  const loads = measured.loads.length > 0 ? `${Math.min(...measured.loads).toFixed(2)} to ${Math.max(...measured.loads).toFixed(2)}` : "–";
  const side = (name: string, { label, records, measurement, load }: FhirRun["search"]["json"], compared: string) =>
    `| ${name} | ${label}, ${n(records)} records | ${n(measurement.requestsPerSecond)} | ${ms(measurement.p50)} | ${ms(measurement.p99)} | ${measurement.cpu ? `${cpuSplit(measurement.cpu)} (${cpuTotal(measurement.cpu)})` : "–"} | ${load} | ${compared} |`;
  const lines = [
    "## FHIR (issue 52): search, Bulk Data export",
    "",
    `\`scripts/bench/fhir.ts\`, run ${measured.startedAt} – ${measured.finishedAt} at commit \`${measured.commit}\` (1-minute load average ${loads}); \`npm run bench -- --only fhir\` runs this section alone (beside the seed). The seed writes each record's FHIR resource and each subject's context resources as an import does (\`scripts/bench/seed-batch.ts\`).`,
    "",
    ...(measured.note ? [measured.note, ""] : []),
    "**Search.** The large dataset's labs page as JSON and as FHIR (the subject's laboratory Observations, the same 50 records in the same order: checked before measuring), on one platform, measured as a pair in interleaved halves (JSON, FHIR, FHIR, JSON) with the endpoints' settings. The FHIR page also counts its matches for `total` and writes each stored resource with its meta (versionId, lastUpdated, source, a tag per health system) and the signed next link.",
    "",
    "| Page | Side | Req/s | p50 | p99 | CPU ms a request: server / PostgreSQL / client (total) | Load, as it began | FHIR / JSON |",
    "|---|---|---:|---:|---:|---:|---:|---|",
    side("JSON category page", search.json, ""),
    side("FHIR search page", search.fhir, `requests/s **${(search.fhir.measurement.requestsPerSecond / search.json.measurement.requestsPerSecond).toFixed(2)}×**, p50 ${(search.fhir.measurement.p50 / search.json.measurement.p50).toFixed(2)}×`),
    "",
    "**Bulk Data export.** For each dataset, a worker process of its own (`scripts/worker.ts`, as `npm run worker` runs it, started fresh for the export) and a client written from the IG alone (`runExportClient`): kick-off `GET /fhir/$export` with `Prefer: respond-async`, the status polled as `Retry-After` says, then every ndjson file downloaded with the key, one after another; timed from the kick-off to the last byte. The floor: one bare `COPY (SELECT resource::text of the same records and context resources) TO STDOUT` on the same database, read by the bench process, right before and right after the export (the faster counts). Peak RSS is the worker's VmHWM once the export completed; at start, its VmRSS before the kick-off.",
    "",
    "| Dataset | Resources (files, MiB) | Export, whole | Kick-off to manifest | Export resources/s | COPY floor (before; after) | Floor rows/s | Export / floor | Worker RSS at start | Worker peak RSS | Load |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const run of fhir.exports) {
    const floor = exportFloor(run);
    lines.push(
      `| ${run.dataset}, ${n(run.records)} records | ${n(run.resources)} (${run.files}, ${n(run.bytes / 1048576)}) | ${run.seconds.toFixed(1)} s | ${run.kickOffToManifest.toFixed(1)} s | ${n(run.resources / run.seconds)} | ${run.floors.map((each) => `${each.seconds.toFixed(1)} s`).join("; ")} | ${n(floor.rows / floor.seconds)} | **${exportRatio(run).toFixed(2)}×** | ${n(run.rssBeforeMiB)} MiB | **${n(run.peakRssMiB)} MiB** | ${run.load} |`,
    );
  }
  lines.push("");
  return lines;
}

const PAIR_NAMES: Record<PlatformPair["id"], string> = {
  "category-vs-app": "Category page vs GET /app",
  "category-floor-vs-app": "Its floor vs GET /app",
  "snapshot-vs-app": "Snapshot vs GET /app",
  "snapshot-floor-vs-app": "Its floor vs GET /app",
  "category-large-vs-small": "Category page, large vs small dataset",
};

/** The targets that compare the platform with itself, each measured as a pair, and the reads' floors; the Targets table reads them from here. */
function pairsSection(pairs: readonly PlatformPair[] | undefined): string[] {
  if (!pairs || pairs.length === 0) return [];
  const cpu = ({ measurement: { cpu } }: PairSide) => (cpu ? `${cpuSplit(cpu)} (${cpuTotal(cpu)})` : "–");
  const row = (name: string, side: PairSide, compared: string) =>
    `| ${name} | ${side.label}, ${n(side.records)} records | ${n(side.measurement.requestsPerSecond)} | ${ms(side.measurement.p50)} | ${ms(side.measurement.p99)} | ${cpu(side)} | ${side.load} | ${compared} |`;
  return [
    "### The targets' pairs: the platform against itself, and the reads' floors",
    "",
    "The targets that compare two of the platform's own figures (a records read against `GET /app`, and the category page on the large dataset against the small) are measured again for themselves, each as a pair on the platform servers the endpoints above ran on: in the same interleaved halves as an endpoint against its baseline (first, second, second, first), so that a load on the shared machine that changes over the pair weighs on both sides alike. In the table above, the two sides were measured minutes apart, each under its own share of what else ran. The Targets table reads these.",
    "",
    "Each records read is followed by its floor, paired with the platform's `GET /app` the same way: the least any server does to answer that read from PostgreSQL. The baseline process serves it under `/floor`, keyless: one statement reads the records the answer holds (the labs page's 50; the snapshot's, each category's first 1,000), in page order, and their stored text is forwarded in one JSON array, with no key check, rate limit, consent, cursors or sources. What the floor reaches against `GET /app` is as far as any design that reads a page's records from PostgreSQL per request could take that target on this machine.",
    "",
    "| Pair | Side | Req/s | p50 | p99 | CPU ms a request: server / PostgreSQL / client (total) | Load, as it began | First / second |",
    "|---|---|---:|---:|---:|---:|---:|---|",
    ...pairs.flatMap(({ id, first, second }) => [
      row(PAIR_NAMES[id], first, `requests/s **${(first.measurement.requestsPerSecond / second.measurement.requestsPerSecond).toFixed(2)}×**, p50 ${(first.measurement.p50 / second.measurement.p50).toFixed(2)}×`),
      row("", second, ""),
    ]),
    "",
  ];
}

/**
 * Where a request's CPU goes, process by process: read from /proc over each measured run (the server's process tree,
 * PostgreSQL's postmaster and backends, the bench process that runs autocannon), divided by the requests served.
 */
function requestCpuTable(runs: readonly EndpointRun[]): string[] {
  const measured = runs.filter((run) => run.app.cpu && run.baseline.cpu);
  if (measured.length === 0) return [];
  return [
    "### CPU per request, process by process",
    "",
    "CPU milliseconds per request over each measured run, read from /proc: the server's process tree, PostgreSQL's (postmaster and backends), and the client (the bench process, which runs autocannon). Every process on the machine is counted whatever else ran, so a ratio of these is what an endpoint costs against another; on two cores, requests/s can be at most 2,000 over the total.",
    "",
    "| Endpoint | Dataset | App: server / PostgreSQL / client | App total | Baseline: server / PostgreSQL / client | Baseline total |",
    "|---|---|---:|---:|---:|---:|",
    ...measured.map((run) => `| ${run.label} | ${datasetName(run)} | ${cpuSplit(run.app.cpu!)} | ${cpuTotal(run.app.cpu!)} | ${cpuSplit(run.baseline.cpu!)} | ${cpuTotal(run.baseline.cpu!)} |`),
    "",
  ];
}

/** Where the category page's and the snapshot's time went: the platform process's profile and PostgreSQL's samples. */
function readProfileLines(profiles: readonly ReadProfile[]): string[] {
  const lines = [
    "### Where a records read's time goes: the platform process and PostgreSQL",
    "",
    "A pass of its own after every measurement (a profiler slows what it profiles, so these runs are not measurements): for each read, a fresh platform on the large dataset under `--cpu-prof`, warmed as the measured ones were, then loaded as a measurement is while `perf record` samples the whole machine (499 Hz, flat: PostgreSQL's binaries keep no frame pointers). The platform's JavaScript profile: self time of its main thread, as a share of the time it was busy serving (startup and idle left out), by component and by function. Then `perf`'s samples, CPU only, by symbol, `[k]` the kernel's (sending and receiving on sockets, waking processes), with the kernel's share of all of them: of the platform process (every thread) and of PostgreSQL's processes.",
    "",
  ];
  for (const profile of profiles) {
    lines.push(`#### ${profile.label} (profiled at ${n(profile.requestsPerSecond)} requests/s)`, "");
    const server = profile.server;
    if (server) {
      lines.push(`The platform process's JavaScript profile, ${n(server.busyMs)} ms busy (a thread in a system call, or waiting for a core, counts as busy in it):`, "", "| Component | Share | Function | Share |", "|---|---:|---|---:|");
      for (let i = 0; i < Math.max(server.components.length, server.functions.length); i++) {
        const component = server.components[i];
        const fn = server.functions[i];
        lines.push(`| ${component ? `\`${component.name}\`` : ""} | ${component ? `${component.percent.toFixed(1)}%` : ""} | ${fn ? `\`${fn.name}\`` : ""} | ${fn ? `${fn.percent.toFixed(1)}%` : ""} |`);
      }
      lines.push("");
    } else lines.push("The platform process wrote no profile.", "");
    lines.push(...perfLines("The platform process as `perf` sampled it (CPU only, every thread of it)", profile.serverPerf), ...perfLines("PostgreSQL", profile.postgres));
  }
  return lines;
}

/** One process's (or command's) perf samples: the kernel's share, and its top symbols. */
function perfLines(what: string, summary: PerfOutcome): string[] {
  if ("unavailable" in summary) return [`${what}: not sampled, ${summary.unavailable}.`, ""];
  const lines = [`${what}: about ${n(summary.samples)} samples, ${summary.kernelPercent.toFixed(1)}% of them in the kernel.`, "", "| Symbol | Share |", "|---|---:|"];
  for (const symbol of summary.symbols) lines.push(`| ${symbol.kernel ? "[k] " : ""}\`${symbol.name}\` | ${symbol.percent.toFixed(1)}% |`);
  lines.push("");
  return lines;
}
