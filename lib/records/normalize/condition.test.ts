import { describe, expect, it } from "vitest";
import { normalizeOne, skipReason } from "@/test/normalizer";

const condition = {
  resourceType: "Condition",
  id: "c1",
  clinicalStatus: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/condition-clinical", code: "Active" }] },
  verificationStatus: { coding: [{ code: "confirmed" }] },
  category: [{ coding: [{ code: "problem-list-item" }] }],
  code: {
    coding: [
      { system: "http://hl7.org/fhir/sid/icd-10-cm", code: "E11.9" },
      { system: "http://snomed.info/sct", code: "44054006", display: "Diabetes mellitus type 2" },
    ],
  },
  onsetDateTime: "2019-04-01T08:00:00+02:00",
  abatementString: "after weight loss",
  recordedDate: "2019-04",
};

describe("normalizeCondition", () => {
  it("keeps codes, clinical status, offsets and partial dates", () => {
    expect(normalizeOne("conditions", condition)).toMatchObject({
      status: "active",
      clinicalStatus: "active",
      verificationStatus: "confirmed",
      code: { text: "Diabetes mellitus type 2", codings: [{ code: "E11.9" }, { code: "44054006" }] },
      onset: { type: "dateTime", value: "2019-04-01T08:00:00+02:00" },
      abatement: { type: "text", value: "after weight loss" },
      recordedDate: "2019-04",
    });
  });

  it("identifies the fact by SNOMED code and onset instant, whatever the other codings, display or offset", () => {
    const original = normalizeOne("conditions", condition);
    const restated = normalizeOne("conditions", {
      ...condition,
      id: "other",
      code: { coding: [{ system: "http://snomed.info/sct", code: "44054006", display: "Type 2 diabetes" }] },
      onsetDateTime: "2019-04-01T06:00:00Z",
    });
    expect(restated.recordId).toBe(original.recordId);
    const later = normalizeOne("conditions", { ...condition, onsetDateTime: "2020-04-01" });
    expect(later.recordId).not.toBe(original.recordId);
  });

  it("skips a Condition without any code", () => {
    expect(skipReason({ ...condition, code: { coding: [] } })).toBe("Condition has no code");
  });

  it("skips a Condition entered in error", () => {
    const erroneous = { ...condition, verificationStatus: { coding: [{ code: "entered-in-error" }] } };
    expect(skipReason(erroneous)).toBe("Condition is entered-in-error");
  });
});
