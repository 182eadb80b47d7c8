import os from "node:os";

/** The memory settings the embedded PostgreSQL starts with, as `-c name=value` values in megabytes. */
export type EmbeddedMemory = { sharedBuffersMb: number; effectiveCacheSizeMb: number };

const MB = 1024 * 1024;
/** PostgreSQL's own default: below it the server would cache less than it does unconfigured. */
const MIN_SHARED_BUFFERS_MB = 128;
const SIZE = /^(\d+)\s*(MB|GB)$/i;

/**
 * The embedded server's cache when `CHARTKEY_POSTGRES_SHARED_BUFFERS` (e.g. `512MB`, `4GB`) asks for one:
 * shared_buffers of that size and effective_cache_size (only the planner's estimate of what the server and the OS
 * cache hold together) half of the memory this process may use. Unset (null), PostgreSQL's defaults (128 MB): sizing
 * it from the machine by default was measured to cost more than it gave on the 2-core machine the bench runs on
 * (docs/operations.md, "Memory").
 */
export function embeddedMemory(setting = process.env.CHARTKEY_POSTGRES_SHARED_BUFFERS, totalBytes = usableMemory()): EmbeddedMemory | null {
  if (!setting?.trim()) return null;
  const sharedBuffersMb = parseSize(setting.trim());
  return { sharedBuffersMb, effectiveCacheSizeMb: Math.max(sharedBuffersMb, Math.floor(totalBytes / MB / 2)) };
}

/**
 * The memory this process may use: the machine's, or less when a container's memory limit (cgroup) says so, since
 * os.totalmem() reports the host's whatever the limit (Node reports no limit as a huge number).
 */
export function usableMemory(total = os.totalmem(), limit = process.constrainedMemory?.() ?? 0): number {
  return limit > 0 && limit < total ? limit : total;
}

/** The server flags of `embeddedMemory`: none when PostgreSQL's defaults apply. */
export function embeddedMemoryFlags(memory: EmbeddedMemory | null = embeddedMemory()): string[] {
  return memory ? ["-c", `shared_buffers=${memory.sharedBuffersMb}MB`, "-c", `effective_cache_size=${memory.effectiveCacheSizeMb}MB`] : [];
}

function parseSize(text: string): number {
  const match = SIZE.exec(text);
  const mb = match ? Number(match[1]) * (match[2]!.toUpperCase() === "GB" ? 1024 : 1) : NaN;
  if (!Number.isSafeInteger(mb) || mb < MIN_SHARED_BUFFERS_MB) {
    throw new Error(`CHARTKEY_POSTGRES_SHARED_BUFFERS must be a size such as 512MB or 4GB, at least ${MIN_SHARED_BUFFERS_MB}MB (got ${text})`);
  }
  return mb;
}
