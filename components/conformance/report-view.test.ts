import { describe, expect, it } from "vitest";
import type { Check } from "@/lib/conformance/schemas";
import { checksInReadingOrder, verdictText } from "./report-view";

const check = (id: string, status: Check["status"], title = id): Check => ({ id, phase: "rate_limits", title, status, summary: "", evidence: {}, fix: null });

describe("the report's verdict line and order", () => {
  it("a failed verdict names the checks that failed", () => {
    const checks = [check("a", "passed"), check("b", "failed", "Forced 429s retried"), check("c", "failed", "Corrupted webhooks rejected"), check("d", "passed")];
    expect(verdictText({ status: "ended", verdict: "failed", checks }).detail).toBe("2 of 4 checks failed: Forced 429s retried and Corrupted webhooks rejected.");
    expect(verdictText({ status: "ended", verdict: "failed", checks: [check("b", "failed", "One")] }).detail).toBe("1 of 1 check failed: One.");
  });

  it("counts read right in the singular and the plural", () => {
    expect(verdictText({ status: "open", verdict: null, checks: [] }).detail).toBe("No check has been graded yet.");
    expect(verdictText({ status: "open", verdict: null, checks: [check("a", "passed")] }).detail).toBe("1 check graded so far.");
    expect(verdictText({ status: "open", verdict: null, checks: [check("a", "passed"), check("b", "passed")] }).detail).toBe("2 checks graded so far.");
    expect(verdictText({ status: "ended", verdict: "passed", checks: [check("a", "passed"), check("b", "passed")] }).detail).toBe("All 2 checks passed.");
    expect(verdictText({ status: "ended", verdict: "inconclusive", checks: [check("a", "passed"), check("b", "inconclusive", "B")] }).detail).toMatch(/^1 of 2 checks could not be graded \(B\)/);
  });

  it("failed checks come first, then inconclusive, then passed, each in phase order", () => {
    const checks = [check("a", "passed"), check("b", "inconclusive"), check("c", "failed"), check("d", "passed"), check("e", "failed")];
    expect(checksInReadingOrder(checks).map((c) => c.id)).toEqual(["c", "e", "b", "a", "d"]);
  });
});
