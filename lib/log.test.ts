import { describe, expect, it } from "vitest";
import { describeFailure } from "./log";

describe("describeFailure", () => {
  it("names the error and each cause, and never prints a bare undefined", () => {
    const root = new Error("lock file already exists");
    const text = describeFailure(new Error("PostgreSQL did not start", { cause: root }));
    expect(text).toMatch(/^Error: PostgreSQL did not start\n/);
    expect(text).toContain("caused by: Error: lock file already exists");
    expect(describeFailure(undefined)).toBe("a failure without any detail (undefined was thrown)");
    expect(describeFailure("boom")).toBe("a non-error value was thrown: boom");
    expect(describeFailure(new Error("outer", { cause: "inner text" }))).toContain("caused by: a non-error value was thrown: inner text");
  });
});
