import { describe, expect, it } from "vitest";
import { embeddedMemory, embeddedMemoryFlags, usableMemory } from "./embedded-memory";

const GB = 1024 ** 3;

describe("the embedded server's memory settings", () => {
  it("give shared_buffers a quarter of the machine's memory and the planner half of it as cache", () => {
    expect(embeddedMemory(16 * GB, undefined)).toEqual({ sharedBuffersMb: 4096, effectiveCacheSizeMb: 8192 });
    expect(embeddedMemoryFlags({ sharedBuffersMb: 4096, effectiveCacheSizeMb: 8192 })).toEqual(["-c", "shared_buffers=4096MB", "-c", "effective_cache_size=8192MB"]);
  });

  it("keep PostgreSQL's 128 MB on a small machine and stop at 8 GB on a large one", () => {
    expect(embeddedMemory(0.25 * GB, undefined)).toEqual({ sharedBuffersMb: 128, effectiveCacheSizeMb: 128 });
    expect(embeddedMemory(256 * GB, undefined)).toEqual({ sharedBuffersMb: 8192, effectiveCacheSizeMb: 131072 });
  });

  it("take CHARTKEY_POSTGRES_SHARED_BUFFERS over the share, and refuse a value that is not a size", () => {
    expect(embeddedMemory(16 * GB, "512MB").sharedBuffersMb).toBe(512);
    expect(embeddedMemory(16 * GB, " 2gb ").sharedBuffersMb).toBe(2048);
    expect(embeddedMemory(16 * GB, "").sharedBuffersMb).toBe(4096);
    for (const bad of ["lots", "512", "64MB", "1.5GB"]) expect(() => embeddedMemory(16 * GB, bad)).toThrow(/CHARTKEY_POSTGRES_SHARED_BUFFERS/);
  });

  it("size from a container's memory limit when it is below the machine's memory", () => {
    expect(usableMemory(64 * GB, 4 * GB)).toBe(4 * GB);
    // No limit: Node reports 0 or a huge number.
    expect(usableMemory(64 * GB, 0)).toBe(64 * GB);
    expect(usableMemory(64 * GB, 2 ** 64)).toBe(64 * GB);
  });
});
