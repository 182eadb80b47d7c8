/**
 * What one import holds in memory of its source's pages and drafted records (their JSON's length) before it moves
 * them to a temporary file, as PostgreSQL's work_mem does for a sort: by default 32 MB, which holds a source of
 * about 10,000 resources; `CHARTKEY_IMPORT_MEMORY` (e.g. `64MB`, `1GB`, or `0MB` for the file always) sets another.
 * Reading a source back from the file costs a tenth to a fifth more CPU (writes, reads and a second parse of every
 * page); what a bigger budget costs is memory per import running at once, about three times the budget at most.
 */
export const DEFAULT_IMPORT_MEMORY_BYTES = 32 << 20;

const SIZE = /^(\d+)\s*(MB|GB)$/i;

export function importMemoryBytes(setting = process.env.CHARTKEY_IMPORT_MEMORY): number {
  if (!setting?.trim()) return DEFAULT_IMPORT_MEMORY_BYTES;
  const match = SIZE.exec(setting.trim());
  const megabytes = match ? Number(match[1]) * (match[2]!.toUpperCase() === "GB" ? 1024 : 1) : NaN;
  if (!Number.isSafeInteger(megabytes)) throw new Error(`CHARTKEY_IMPORT_MEMORY must be a size such as 32MB or 1GB (got ${setting})`);
  return megabytes * 2 ** 20;
}
