import v8 from "node:v8";

/**
 * How far V8 lets a job worker's heap grow past its live size before a full collection: half of it. V8's own
 * choice, for a process whose collections are quick, is up to four times: an import's short-lived garbage that
 * outlives the young generation (its pages' resources, its write's rows) then gathered for the whole import, and a
 * 50,000-resource import's peak memory grew with its size (bench/results.md, "Imports"). The collections this adds
 * cost little where the live heap is small, as a worker's is between jobs.
 */
export const WORKER_HEAP_GROWING_PERCENT = 50;

/** Sets it for this process: every process that runs jobs (startWorker), and the bench that times an import as one. */
export function boundWorkerHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${WORKER_HEAP_GROWING_PERCENT}`);
}
