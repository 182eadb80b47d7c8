import { describe, expect, it } from "vitest";
import { normalizeOne, skipReason } from "@/test/normalizer";

const allergy = {
  resourceType: "AllergyIntolerance",
  id: "a1",
  clinicalStatus: { coding: [{ code: "active" }] },
  verificationStatus: { coding: [{ code: "confirmed" }] },
  type: "allergy",
  category: ["Food"],
  criticality: "high",
  code: { coding: [{ system: "http://snomed.info/sct", code: "91935009", display: "Allergy to peanuts" }] },
  onsetAge: { value: 4, unit: "a", system: "http://unitsofmeasure.org", code: "a" },
  recordedDate: "2010-05-06T07:08:09+05:30",
  reaction: [
    {
      manifestation: [{ coding: [{ system: "http://snomed.info/sct", code: "39579001", display: "Anaphylaxis" }] }],
      severity: "severe",
      onset: "2010-05",
    },
  ],
};

describe("normalizeAllergy", () => {
  it("maps substance, statuses, onset age and reactions", () => {
    expect(normalizeOne("allergies", allergy)).toMatchObject({
      status: "active",
      clinicalStatus: "active",
      verificationStatus: "confirmed",
      type: "allergy",
      categories: ["food"],
      criticality: "high",
      code: { text: "Allergy to peanuts" },
      onset: { type: "age", value: { value: 4, code: "a" } },
      recordedDate: "2010-05-06T07:08:09+05:30",
      reactions: [{ substance: null, manifestations: [{ text: "Anaphylaxis" }], severity: "severe", onset: "2010-05" }],
    });
  });

  it("skips an allergy without a code", () => {
    expect(skipReason({ ...allergy, code: undefined })).toBe("AllergyIntolerance has no code");
  });
});
