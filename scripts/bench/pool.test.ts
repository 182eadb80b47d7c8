import { describe, expect, it } from "vitest";
import { runPool } from "./pool";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("runPool", () => {
  it("runs every index once with at most `concurrency` at a time", async () => {
    const seen: number[] = [];
    let running = 0;
    let peak = 0;
    await runPool(25, 4, async (index) => {
      running += 1;
      peak = Math.max(peak, running);
      await tick();
      seen.push(index);
      running -= 1;
    });
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(peak).toBe(4);
  });

  it("stops starting tasks after a failure and throws it", async () => {
    const started: number[] = [];
    const run = runPool(100, 2, async (index) => {
      started.push(index);
      await tick();
      if (index === 3) throw new Error("boom");
    });
    await expect(run).rejects.toThrow("boom");
    expect(started.length).toBeLessThan(10);
  });
});
