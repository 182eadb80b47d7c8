import { describe, expect, it } from "vitest";
import { runLifecycle } from "./lifecycle";

describe("runLifecycle", () => {
  it("runs every cycle with the same clock, and a failing cycle neither stops the others nor throws", async () => {
    const now = new Date("2026-11-23T10:00:00.000Z");
    const seen: Date[] = [];
    const outcomes = await runLifecycle(
      [
        { name: "first", run: async (at) => (seen.push(at), 2) },
        { name: "broken", run: async () => Promise.reject(new Error("database went away")) },
        { name: "last", run: async (at) => (seen.push(at), 0) },
      ],
      now,
    );
    expect(outcomes).toEqual([
      { name: "first", affected: 2 },
      { name: "broken", error: "database went away" },
      { name: "last", affected: 0 },
    ]);
    expect(seen).toEqual([now, now]);
  });
});
