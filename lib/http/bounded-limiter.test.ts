import { describe, expect, it } from "vitest";
import { BoundedWindowLimiter } from "./bounded-limiter";

describe("BoundedWindowLimiter", () => {
  it("admits `points` per window per key and resets when the window ends", () => {
    const limiter = new BoundedWindowLimiter(3, 1000);
    expect([1, 2, 3, 4].map(() => limiter.consume("a", 0).allowed)).toEqual([true, true, true, false]);
    expect(limiter.consume("b", 10).allowed).toBe(true);
    expect(limiter.consume("a", 999)).toMatchObject({ allowed: false, remaining: 0, resetMs: 1 });
    expect(limiter.consume("a", 1000)).toMatchObject({ allowed: true, remaining: 2, resetMs: 1000 });
  });

  it("keeps at most maxKeys windows however many keys arrive", () => {
    const limiter = new BoundedWindowLimiter(120, 60_000, 1000);
    for (let i = 0; i < 100_000; i += 1) limiter.consume(`10.0.${i >> 8}.${i & 255}`, 0);
    expect(limiter.size).toBe(1000);
    // The newest keys are the ones kept.
    expect(limiter.consume(`10.0.${99_999 >> 8}.${99_999 & 255}`, 1).remaining).toBe(118);
  });
});
