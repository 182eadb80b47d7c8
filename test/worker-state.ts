import { resetProcessState } from "../lib/process-state";

/**
 * The process state a file may inherit from the files its worker ran before: values computed from fixtures alone,
 * the same for every file and every database, and costly to build again. Everything else in lib/process-state.ts's
 * registry (pools, queue clients, caches of rows, rate-limit windows, faults, clocks, metrics) belongs to one file's
 * database and run, and is made afresh before the next file starts.
 */
const SHARED_ACROSS_FILES = new Set([
  "sandbox.long-history",
  "sandbox.long-history-outline",
  "ehr.patients",
  "ehr.resources-by-type",
  "ehr.searchable-types",
  "ehr.served-resource-text",
  "demo.fhir-catalog",
  "demo.searchable-types",
  "demo.scenario-facts",
  "openapi.demo-document",
  "openapi.platform-document",
  "ids.entropy",
  "audit.context",
  "log.destination",
  "jobs.lost-database",
  "accounts.dummy-hash",
  "server.running-handlers",
]);

const BASELINE = Symbol.for("chartkey.test.worker-environment");
type Holder = typeof globalThis & { [BASELINE]?: Record<string, string | undefined> };

/**
 * Gives a test file the environment and process state its worker started with. Integration files share their
 * worker's modules (isolate: false in vitest.config.ts: importing the platform afresh for each file was a quarter of
 * the project's time), so a variable one file set, or a pool, queue client or cache one file made for its database,
 * would otherwise reach the next file.
 */
export function startFromWorkerState(): void {
  const holder = globalThis as Holder;
  const baseline = (holder[BASELINE] ??= { ...process.env });
  for (const name of Object.keys(process.env)) if (!(name in baseline)) delete process.env[name];
  Object.assign(process.env, baseline);
  resetProcessState((name) => !SHARED_ACROSS_FILES.has(name));
}
