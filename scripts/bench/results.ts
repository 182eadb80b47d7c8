import type { EndpointId } from "./endpoints";
import type { Measurement } from "./load";
import type { Machine } from "./machine";

/** Seconds are wall-clock: subjects, sources and receipts; imports (normalize + applySourceFacts); VACUUM ANALYZE after. */
export type SeedRun = { subjects: number; records: number; seconds: { setup: number; imports: number; total: number; vacuum: number } };

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

export type BenchResults = {
  startedAt: string;
  finishedAt: string;
  commit: string;
  machine: Machine;
  settings: { connections: number; duration: number; warmup: number; seedConcurrency: number; recordsPerSubject: number };
  seed: { large: SeedRun; small: SeedRun };
  runs: EndpointRun[];
  /** Load averages sampled through the run (1-minute), to show whether other work shared the machine. */
  loadSamples: number[];
};

export type Target = { name: string; goal: string; measured: string; met: boolean };

export const TARGETS = { endpointRatio: 0.5, appRatio: 0.4, p50Growth: 1.3 } as const;

export const ratio = (run: EndpointRun) => run.app.requestsPerSecond / run.baseline.requestsPerSecond;

/** The targets, evaluated on one run's figures. */
export function evaluateTargets(results: BenchResults): Target[] {
  const targets: Target[] = [];
  // The health check is a reference (what serving any operation costs), not one of the endpoints.
  for (const run of results.runs.filter((candidate) => candidate.dataset === "large" && candidate.id !== "health")) {
    const value = ratio(run);
    targets.push({ name: `${run.label}: requests/s vs baseline`, goal: `≥ ${TARGETS.endpointRatio}×`, measured: `${value.toFixed(2)}×`, met: value >= TARGETS.endpointRatio });
    if (run.id === "app") {
      targets.push({ name: "GET /app: requests/s vs baseline (keyed hot path)", goal: `≥ ${TARGETS.appRatio}×`, measured: `${value.toFixed(2)}×`, met: value >= TARGETS.appRatio });
    }
  }
  const large = results.runs.find((run) => run.id === "category" && run.dataset === "large");
  const small = results.runs.find((run) => run.id === "category" && run.dataset === "small");
  if (large && small) {
    const growth = large.app.p50 / small.app.p50;
    targets.push({
      name: `Category page p50 at ${large.records.toLocaleString("en-US")} vs ${small.records.toLocaleString("en-US")} records`,
      goal: `≤ ${TARGETS.p50Growth}×`,
      measured: `${growth.toFixed(2)}× (${large.app.p50} ms vs ${small.app.p50} ms)`,
      met: growth <= TARGETS.p50Growth,
    });
  }
  return targets;
}

export function recordsPerSecond(seed: SeedRun): number {
  return seed.records / seed.seconds.imports;
}
