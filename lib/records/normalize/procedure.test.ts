import { describe, expect, it } from "vitest";
import { normalizeOne, skipReason } from "@/test/normalizer";

const procedure = {
  resourceType: "Procedure",
  id: "pr1",
  status: "completed",
  code: { coding: [{ system: "http://snomed.info/sct", code: "80146002", display: "Appendectomy" }] },
  performedPeriod: { start: "2015-07-04T13:00:00+01:00", end: "2015-07-04T14:30:00+01:00" },
  bodySite: [{ text: "Appendix" }],
  reasonCode: [{ text: "Appendicitis" }],
};

describe("normalizeProcedure", () => {
  it("maps code, performed period with its offsets, body sites and reasons", () => {
    expect(normalizeOne("procedures", procedure)).toMatchObject({
      status: "completed",
      code: { text: "Appendectomy" },
      performed: { type: "period", start: "2015-07-04T13:00:00+01:00", end: "2015-07-04T14:30:00+01:00" },
      bodySites: [{ text: "Appendix", codings: [] }],
      reasonCodes: [{ text: "Appendicitis", codings: [] }],
    });
  });

  it("skips a procedure without a code", () => {
    expect(skipReason({ ...procedure, code: null })).toBe("Procedure has no code");
  });
});
