import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { BenchResults } from "./results";
import { writeResults } from "./write-results";

const results: BenchResults = {
  startedAt: "2026-11-30T05:50:17.680Z",
  finishedAt: "2026-11-30T05:58:44.096Z",
  commit: "86e677f",
  machine: { cpuModel: "Test CPU", cpus: 2, memoryGiB: 24, node: "v20.0.0", platform: "Linux" },
  settings: { connections: 32, duration: 10, warmup: 3, seedConcurrency: 3, recordsPerSubject: 100 },
  seed: {
    large: { subjects: 10_000, records: 1_000_000, seconds: { setup: 5, imports: 120, total: 125, vacuum: 7 } },
    small: { subjects: 100, records: 10_000, seconds: { setup: 0.2, imports: 1.5, total: 1.7, vacuum: 0.6 } },
  },
  runs: [],
  loadSamples: [1, 2],
};

describe("writeResults", () => {
  it("writes the run as measured and renders the report beside the earlier run in before/", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "ck-bench-out-"));
    await writeResults(out, results);
    expect(JSON.parse(readFileSync(path.join(out, "results.json"), "utf8"))).toEqual(results);
    expect(readFileSync(path.join(out, "results.md"), "utf8")).not.toContain("## Before and after");
    expect(readFileSync(path.join(out, "results.svg"), "utf8").startsWith("<svg")).toBe(true);

    mkdirSync(path.join(out, "before"));
    writeFileSync(path.join(out, "before", "results.json"), JSON.stringify({ ...results, startedAt: "2026-11-30T03:36:47.559Z", commit: "f968385", settings: { ...results.settings, duration: 3 } }));
    await writeResults(out, results);
    const markdown = readFileSync(path.join(out, "results.md"), "utf8");
    expect(markdown).toContain("Before: the run of 2026-11-30T03:36:47.559Z at commit `f968385` (before/results.json), on the same machine (this run: 10 s per measurement).");
    expect(readFileSync(path.join(out, "results.json"), "utf8")).toBe(`${JSON.stringify(results, null, 2)}\n`);
  });
});
