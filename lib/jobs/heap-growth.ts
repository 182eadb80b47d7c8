import v8 from "node:v8";

/**
 * How far V8 lets a job worker's heap grow past its live size before a full collection: half of it. V8's own
 * choice, for a process whose collections are quick, is up to four times: an import's short-lived garbage that
 * outlives the young generation (its pages' resources, its write's rows) then gathered for the whole import, and a
 * 50,000-resource import's peak memory grew with its size (bench/results.md, "Imports"). The collections this adds
 * cost little where the live heap is small, as a worker's is between jobs (measured: the same CPU per import).
 */
export const WORKER_HEAP_GROWING_PERCENT = 50;

/**
 * Sets it for this process: a worker process (`npm run worker`), and the bench that times an import as one. The
 * platform's own process, whose worker shares it with the web server, keeps V8's default: its requests' garbage is
 * young, and more full collections would cost every request.
 */
export function boundWorkerHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${WORKER_HEAP_GROWING_PERCENT}`);
}
