import { describe, expect, it } from "vitest";
import { embeddedMemory, embeddedMemoryFlags, usableMemory } from "./embedded-memory";

const GB = 1024 ** 3;

describe("the embedded server's memory settings", () => {
  it("are PostgreSQL's defaults unless CHARTKEY_POSTGRES_SHARED_BUFFERS asks for a cache", () => {
    expect(embeddedMemory(undefined, 16 * GB)).toBeNull();
    expect(embeddedMemory(" ", 16 * GB)).toBeNull();
    expect(embeddedMemoryFlags(null)).toEqual([]);
  });

  it("give shared_buffers the size asked and the planner half of the memory as cache", () => {
    expect(embeddedMemory("4GB", 16 * GB)).toEqual({ sharedBuffersMb: 4096, effectiveCacheSizeMb: 8192 });
    expect(embeddedMemory(" 512mb ", 16 * GB)).toEqual({ sharedBuffersMb: 512, effectiveCacheSizeMb: 8192 });
    expect(embeddedMemory("2GB", 2 * GB)).toEqual({ sharedBuffersMb: 2048, effectiveCacheSizeMb: 2048 });
    expect(embeddedMemoryFlags({ sharedBuffersMb: 4096, effectiveCacheSizeMb: 8192 })).toEqual(["-c", "shared_buffers=4096MB", "-c", "effective_cache_size=8192MB"]);
  });

  it("refuse a value that is not a size of at least 128 MB", () => {
    for (const bad of ["lots", "512", "64MB", "1.5GB"]) expect(() => embeddedMemory(bad, 16 * GB)).toThrow(/CHARTKEY_POSTGRES_SHARED_BUFFERS/);
  });

  it("count a container's memory limit when it is below the machine's memory", () => {
    expect(usableMemory(64 * GB, 4 * GB)).toBe(4 * GB);
    // No limit: Node reports 0 or a huge number.
    expect(usableMemory(64 * GB, 0)).toBe(64 * GB);
    expect(usableMemory(64 * GB, 2 ** 64)).toBe(64 * GB);
  });
});
