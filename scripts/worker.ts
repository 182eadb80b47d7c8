// `npm run worker`: the job worker alone, for deployments that scale workers apart from app instances.
import { loadLocalEnv } from "@/lib/config";

await loadLocalEnv();
// Traces over OTLP only when a collector is named; started before anything loads pg (see scripts/start.ts).
const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? (await import("@/lib/tracing/start-tracing")).startTracing() : undefined;
const { closeDb, openPlatformDatabase } = await import("@/lib/db");
const { boundWorkerHeapGrowth, startWorker } = await import("@/lib/jobs");
const { JOBS } = await import("./platform-jobs");
const { flushLog } = await import("@/lib/log");
const { startConfiguredMetricsServer } = await import("@/lib/metrics");

// A process of its own for jobs: its heap is kept close to its live size (see heap-growth.ts).
boundWorkerHeapGrowth();
const database = await openPlatformDatabase();
// Alone on a database server it has just started, the worker reruns the jobs a crashed predecessor left active.
const worker = await startWorker(database.url, JOBS, { serverJustStarted: database.origin === "embedded" });
// Its own metrics (imports, deliveries, queue) on CHARTKEY_METRICS_PORT when set.
const metricsServer = await startConfiguredMetricsServer();
console.log("Chartkey worker running; Ctrl-C stops it.");

// Ctrl-C arrives more than once (the terminal and tsx both send it): stop once.
let stopping: Promise<void> | undefined;
const stop = () =>
  (stopping ??= (async () => {
    metricsServer?.close();
    await worker.stop().catch(() => {});
    await closeDb();
    await database.stop().catch(() => {});
    await tracing?.shutdown().catch(() => {});
    await flushLog();
    process.exit(0);
  })());
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
