import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { summarizeProfiles } from "./profile";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url, lineNumber: 9 }, children });

describe("summarizeProfiles", () => {
  it("shares the main thread's serving time by component and function, without startup, idle or other threads", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ck-profile-"));
    made.push(dir);
    const nodes = [
      frame(1, "(root)", "", [2, 3, 4, 6]),
      frame(2, "(idle)", ""),
      frame(3, "runPipeline", "file:///repo/lib/api/route.ts", [5]),
      frame(4, "compileSourceTextModule", "node:internal/modules/esm/utils", [7]),
      frame(5, "parseRow", "file:///repo/node_modules/pg/lib/result.js"),
      frame(6, "writev", ""),
      frame(7, "transform", "file:///repo/node_modules/tsx/dist/x.mjs"),
    ];
    // 10 ms idle, 10 ms in runPipeline itself, 20 ms in pg, 10 ms in writev; 50 ms loading modules.
    const profile = { nodes, samples: [2, 3, 5, 5, 6, 4, 7], timeDeltas: [10_000, 10_000, 10_000, 10_000, 10_000, 25_000, 25_000] };
    writeFileSync(path.join(dir, "CPU.20261128.100000.42.0.001.cpuprofile"), JSON.stringify(profile));
    writeFileSync(path.join(dir, "CPU.20261128.100000.42.1.002.cpuprofile"), JSON.stringify({ ...profile, samples: [5], timeDeltas: [999_000] }));

    const summary = summarizeProfiles(dir)!;
    expect(summary.busyMs).toBe(40);
    expect(summary.components).toEqual([
      { name: "npm pg", percent: 50 },
      { name: "lib/api/route.ts", percent: 25 },
      { name: "native writev", percent: 25 },
    ]);
    expect(summary.functions[0]).toEqual({ name: "parseRow (npm pg:10)", percent: 50 });
  });

  it("has nothing to say without a profile", () => {
    expect(summarizeProfiles(path.join(tmpdir(), "ck-no-such-profile"))).toBeUndefined();
  });
});
