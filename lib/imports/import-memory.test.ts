import { describe, expect, it } from "vitest";
import { DEFAULT_IMPORT_MEMORY_BYTES, importMemoryBytes } from "./import-memory";

describe("an import's memory", () => {
  it("is 32 MB unless CHARTKEY_IMPORT_MEMORY names a size in MB or GB (0MB: the file always)", () => {
    expect(importMemoryBytes(undefined)).toBe(DEFAULT_IMPORT_MEMORY_BYTES);
    expect(importMemoryBytes(" ")).toBe(32 * 2 ** 20);
    expect(importMemoryBytes("64MB")).toBe(64 * 2 ** 20);
    expect(importMemoryBytes("1gb")).toBe(2 ** 30);
    expect(importMemoryBytes("0MB")).toBe(0);
    for (const bad of ["lots", "512", "64 KB", "1.5GB", "-1MB"]) expect(() => importMemoryBytes(bad)).toThrow(/CHARTKEY_IMPORT_MEMORY must be a size/);
  });
});
