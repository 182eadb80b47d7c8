import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { DEFAULT_LIMIT, parseLimit, parseOffset } from "./pagination";

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.code}`;
    throw error;
  }
  return "ok";
}

describe("pagination parameters", () => {
  it("limit defaults to 50 and accepts whole numbers 1 to 100", () => {
    expect(parseLimit(null)).toBe(DEFAULT_LIMIT);
    expect(DEFAULT_LIMIT).toBe(50);
    expect(parseLimit("1")).toBe(1);
    expect(parseLimit("100")).toBe(100);
  });

  it("refuses any other limit with 400 invalid_pagination", () => {
    for (const raw of ["0", "101", "-1", "1.5", "1e2", "", " 5", "abc", "99999999999999999999", "0x10"]) {
      expect(codeOf(() => parseLimit(raw)), raw).toBe("400 invalid_pagination");
    }
  });

  it("offset defaults to 0, accepts whole numbers >= 0 and refuses the rest", () => {
    expect(parseOffset(null)).toBe(0);
    expect(parseOffset("0")).toBe(0);
    expect(parseOffset("250")).toBe(250);
    for (const raw of ["-1", "1.2", "", "x", "99999999999999999999"]) {
      expect(codeOf(() => parseOffset(raw)), raw).toBe("400 invalid_pagination");
    }
  });
});
