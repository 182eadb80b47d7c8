import os from "node:os";

/** The memory settings the embedded PostgreSQL starts with, as `-c name=value` values in megabytes. */
export type EmbeddedMemory = { sharedBuffersMb: number; effectiveCacheSizeMb: number };

const MB = 1024 * 1024;
/** PostgreSQL's own default: below it the server would cache less than it does unconfigured. */
const MIN_SHARED_BUFFERS_MB = 128;
/** Past a few GB more shared buffers stop paying for themselves (the OS page cache holds the rest). */
const MAX_SHARED_BUFFERS_MB = 8 * 1024;
const SIZE = /^(\d+)\s*(MB|GB)$/i;

/**
 * What the embedded server's cache gets, from the machine's memory: shared_buffers a quarter of it (PostgreSQL's
 * documented starting point) between 128 MB and 8 GB, and effective_cache_size (only the planner's estimate of
 * what the server and the OS cache hold together) half of it. Unconfigured, PostgreSQL keeps 128 MB: a million
 * records are about 2 GB, so every read of a rotating set of subjects copied its pages back in from the OS page cache
 * and evicted others. Linux commits shared memory as pages are first used, so a large setting costs memory only as
 * data is read. `CHARTKEY_POSTGRES_SHARED_BUFFERS` (e.g. `512MB`, `4GB`) overrides the share.
 */
export function embeddedMemory(totalBytes = usableMemory(), override = process.env.CHARTKEY_POSTGRES_SHARED_BUFFERS): EmbeddedMemory {
  const totalMb = Math.floor(totalBytes / MB);
  const sharedBuffersMb = override?.trim() ? parseSize(override.trim()) : Math.min(MAX_SHARED_BUFFERS_MB, Math.max(MIN_SHARED_BUFFERS_MB, Math.floor(totalMb / 4)));
  return { sharedBuffersMb, effectiveCacheSizeMb: Math.max(sharedBuffersMb, Math.floor(totalMb / 2)) };
}

/**
 * The memory this process may use: the machine's, or less when a container's memory limit (cgroup) says so, since
 * os.totalmem() reports the host's whatever the limit (Node reports no limit as a huge number).
 */
export function usableMemory(total = os.totalmem(), limit = process.constrainedMemory?.() ?? 0): number {
  return limit > 0 && limit < total ? limit : total;
}

/** The server flags of `embeddedMemory`. */
export function embeddedMemoryFlags(memory: EmbeddedMemory = embeddedMemory()): string[] {
  return ["-c", `shared_buffers=${memory.sharedBuffersMb}MB`, "-c", `effective_cache_size=${memory.effectiveCacheSizeMb}MB`];
}

function parseSize(text: string): number {
  const match = SIZE.exec(text);
  const mb = match ? Number(match[1]) * (match[2]!.toUpperCase() === "GB" ? 1024 : 1) : NaN;
  if (!Number.isSafeInteger(mb) || mb < MIN_SHARED_BUFFERS_MB) {
    throw new Error(`CHARTKEY_POSTGRES_SHARED_BUFFERS must be a size such as 512MB or 4GB, at least ${MIN_SHARED_BUFFERS_MB}MB (got ${text})`);
  }
  return mb;
}
