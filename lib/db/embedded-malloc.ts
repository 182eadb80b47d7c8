import { processState } from "@/lib/process-state";

/**
 * glibc's malloc settings for the embedded server's processes: allocations under 32 MiB come from the heap (not a
 * memory mapping of their own), and up to 128 MiB freed at the heap's top is kept rather than returned. A backend
 * building a page of records allocates a few hundred kilobytes per statement; by default each such block was
 * mapped and unmapped again for every statement, and on a virtual machine whose page faults and TLB flushes are
 * costly (the bench's: about 13 us per fresh page) that was a fifth of PostgreSQL's CPU on the record reads
 * (docs/operations.md). A backend's heap then stays at its largest statement's size, as PostgreSQL's own caches do.
 */
export const POSTGRES_MALLOC_TUNABLES = "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=134217728";

// Starts under way in this process, and whether the first of them set the variable (and the last must remove it).
const starts = processState("db.embedded-malloc-starts", () => ({ running: 0, setHere: false }));

/**
 * Runs `start` (which spawns the server) with GLIBC_TUNABLES set to POSTGRES_MALLOC_TUNABLES for the processes it
 * spawns, the package passing this process's environment on; an operator's own GLIBC_TUNABLES is left as it is.
 * Other C libraries ignore the variable.
 */
export async function withPostgresMalloc<T>(start: () => Promise<T>): Promise<T> {
  if (starts.running === 0 && process.env.GLIBC_TUNABLES === undefined) {
    process.env.GLIBC_TUNABLES = POSTGRES_MALLOC_TUNABLES;
    starts.setHere = true;
  }
  starts.running += 1;
  try {
    return await start();
  } finally {
    starts.running -= 1;
    if (starts.running === 0 && starts.setHere) {
      delete process.env.GLIBC_TUNABLES;
      starts.setHere = false;
    }
  }
}
