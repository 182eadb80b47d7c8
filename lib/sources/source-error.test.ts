import { describe, expect, it } from "vitest";
import { sourceWarningCode } from "./source-error";

describe("sourceWarningCode", () => {
  it("tells a source the patient must sign in to again from one a later sync may get past", () => {
    expect(sourceWarningCode("reauthorization_required: Riverbend Health's token endpoint answered 400 invalid_grant.")).toBe("reauthorization_required");
    expect(sourceWarningCode("not_connected: The source has no access token; the patient must sign in again.")).toBe("reauthorization_required");
    for (const transient of ["source_unavailable: The Patient read answered 503, 3 times.", "rate_limited: ...", "invalid_response: ...", "import_failed: boom", "interrupted"]) {
      expect(sourceWarningCode(transient)).toBe("source_unavailable");
    }
    expect(sourceWarningCode(null)).toBeNull();
    expect(sourceWarningCode("")).toBeNull();
  });
});
