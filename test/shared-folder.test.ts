import { describe, expect, it } from "vitest";
import { sharedFolderVerdict } from "./shared-folder";

describe("sharedFolderVerdict", () => {
  it("runs the suite whenever the folder exists, in CI or not", () => {
    expect(sharedFolderVerdict("../shared/fhir-samples", true, "true")).toEqual({ action: "run" });
    expect(sharedFolderVerdict("../shared/fhir-samples", true, undefined)).toEqual({ action: "run" });
  });

  it("fails in CI when the folder is missing, saying who must provide it", () => {
    for (const ci of ["true", "1", "TRUE", "github"]) {
      expect(sharedFolderVerdict("../shared/fhir-samples", false, ci), ci).toEqual({
        action: "fail",
        message: "../shared/fhir-samples is missing; CI must provide it beside the checkout",
      });
    }
  });

  it("skips with a message outside CI, including when CI is switched off rather than unset", () => {
    for (const ci of [undefined, "", "false", "0"]) {
      const verdict = sharedFolderVerdict("../shared/fhir-samples", false, ci);
      expect(verdict.action, String(ci)).toBe("skip");
      expect(verdict).toHaveProperty("message", expect.stringContaining("../shared/fhir-samples is missing"));
    }
  });
});
