import { describe, expect, it } from "vitest";
import { waitForQuiet } from "./machine";

describe("waitForQuiet", () => {
  it("returns at once when the load is already below the mark", async () => {
    const readings = [0.4];
    expect(await waitForQuiet(1, 60, { read: () => readings.shift()!, everyMs: 1 })).toEqual({ seconds: 0, load: 0.4 });
    expect(readings).toEqual([]);
  });

  it("reads the load again until it falls below the mark", async () => {
    const readings = [3.1, 2.2, 1.4, 0.9, 0.5];
    const waited = await waitForQuiet(1, 60, { read: () => readings.shift()!, everyMs: 1 });
    expect(waited.load).toBe(0.9);
    expect(readings).toEqual([0.5]);
  });

  it("stops waiting at the limit, with the load it last read", async () => {
    let reads = 0;
    const waited = await waitForQuiet(1, 0.05, { read: () => (reads++, 4), everyMs: 10 });
    expect(waited.load).toBe(4);
    // No more than 50 ms allow: the first read, then one per 10 ms.
    expect(reads).toBeGreaterThan(1);
    expect(reads).toBeLessThanOrEqual(6);
  });
});
