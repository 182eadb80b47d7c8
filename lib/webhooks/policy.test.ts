import { describe, expect, it } from "vitest";
import { backoffMs, deliveryPolicy, MAX_ATTEMPTS } from "./policy";

describe("the retry schedule", () => {
  it("makes 8 attempts whose waits grow fourfold from 16 seconds, about 24 hours in all, with ±10% jitter", () => {
    expect(MAX_ATTEMPTS).toBe(8);
    const waits = [1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffMs(attempt, 1, () => 0.5));
    expect(waits).toEqual([16_000, 64_000, 256_000, 1_024_000, 4_096_000, 16_384_000, 65_536_000]);
    const total = waits.reduce((sum, wait) => sum + wait, 0) / 3_600_000;
    expect(total).toBeGreaterThan(23);
    expect(total).toBeLessThan(25);
    expect(backoffMs(1, 1, () => 0)).toBe(14_400);
    expect(backoffMs(1, 1, () => 1)).toBe(17_600);
    expect(deliveryPolicy().timeoutMs).toBe(10_000);
  });
});
