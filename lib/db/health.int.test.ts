import { afterEach, describe, expect, it, vi } from "vitest";
import { databaseReachable } from "./health";

afterEach(() => {
  vi.useRealTimers();
});

describe("databaseReachable", () => {
  it("answers true from a reachable database and leaves no timer pending once it has answered", async () => {
    // Timers are counted, not run: the probe itself is real I/O on the test database.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const probes = () => Promise.all(Array.from({ length: 20 }, () => databaseReachable(60_000)));
    // The pool's idle connections keep timers of their own: opened first, they are there before and after.
    expect(await probes()).toEqual(Array(20).fill(true));
    const before = vi.getTimerCount();
    expect(await probes()).toEqual(Array(20).fill(true));
    expect(vi.getTimerCount()).toBe(before);
  });
});
