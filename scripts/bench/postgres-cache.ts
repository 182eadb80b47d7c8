import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { embeddedMemory, type EmbeddedMemory } from "@/lib/db";

/** The cache the bench's PostgreSQL runs with, and how it was had. */
export type PostgresCache = {
  /** The server's memory settings; null for PostgreSQL's defaults (128 MB). */
  memory: EmbeddedMemory | null;
  /** Why the cache is what it is, for the report. */
  note: string;
  release: () => void;
};

const NR_HUGEPAGES = "/proc/sys/vm/nr_hugepages";
// PostgreSQL's shared memory holds more than the buffers (locks, WAL buffers, descriptors): a few percent at these sizes.
const SHARED_MEMORY_OVERHEAD = 1.05;
const EXTRA_MB = 64;

/**
 * A cache that holds the bench's datasets, in huge pages: on the bench's virtual machine a backend pays a page fault
 * of about 13 µs for each 4 kB page of the shared cache it touches first, so a large cache in 4 kB pages costs each
 * of the platform's twenty pool connections seconds of faults before it is warm (measured: a gigabytes-large cache
 * in 4 kB pages did not lower a category page's cost at a million records, and raised the seed's), while in 2 MB
 * pages a cache holding the records makes a page at a million records cost what it costs at ten thousand. The
 * bench reserves the huge pages (vm.nr_hugepages, root only) for its run and gives them back after, as an operator
 * would reserve them for a deployment (docs/operations.md). Without them it keeps PostgreSQL's default cache.
 */
export function reservePostgresCache(size: string): PostgresCache {
  const none = (note: string): PostgresCache => ({ memory: null, note, release: () => {} });
  if (size === "default") return none("PostgreSQL's default cache (shared_buffers 128 MB), as asked (--postgres-cache default)");
  const memory = embeddedMemory(size);
  if (!memory) return none("PostgreSQL's default cache (shared_buffers 128 MB)");
  if (process.getuid?.() !== 0 || !existsSync(NR_HUGEPAGES)) {
    return none(`PostgreSQL's default cache (shared_buffers 128 MB): a ${size} cache needs huge pages, which only root can reserve here`);
  }
  const pageMb = hugePageMb();
  const wanted = Math.ceil((memory.sharedBuffersMb * SHARED_MEMORY_OVERHEAD + EXTRA_MB) / pageMb);
  const before = Number(readFileSync(NR_HUGEPAGES, "utf8").trim());
  const release = () => writeFileSync(NR_HUGEPAGES, String(before));
  try {
    writeFileSync(NR_HUGEPAGES, String(before + wanted));
  } catch (error) {
    return none(`PostgreSQL's default cache (shared_buffers 128 MB): reserving ${wanted} huge pages failed (${(error as Error).message})`);
  }
  const reserved = Number(readFileSync(NR_HUGEPAGES, "utf8").trim()) - before;
  if (reserved < wanted) {
    release();
    return none(`PostgreSQL's default cache (shared_buffers 128 MB): the kernel could reserve only ${reserved} of ${wanted} huge pages`);
  }
  // A bench that exits on an error still gives the memory back.
  process.once("exit", release);
  return {
    memory,
    note: `shared_buffers ${size} in ${pageMb} MB huge pages (${reserved} reserved by the bench for its server, released after), a cache that holds the datasets, as docs/operations.md recommends for a deployment whose reads dominate`,
    release,
  };
}

function hugePageMb(): number {
  const match = /^Hugepagesize:\s+(\d+) kB$/m.exec(readFileSync("/proc/meminfo", "utf8"));
  return match ? Number(match[1]) / 1024 : 2;
}
