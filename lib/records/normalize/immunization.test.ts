import { describe, expect, it } from "vitest";
import { normalizeOne, skipReason } from "@/test/normalizer";

const immunization = {
  resourceType: "Immunization",
  id: "i1",
  status: "completed",
  vaccineCode: { coding: [{ system: "http://hl7.org/fhir/sid/cvx", code: "140", display: "Influenza, seasonal" }] },
  occurrenceDateTime: "2022-10-01T10:00:00-05:00",
  primarySource: true,
  lotNumber: "LOT42",
  doseQuantity: { value: 0.5, unit: "mL", code: "mL", system: "http://unitsofmeasure.org" },
};

describe("normalizeImmunization", () => {
  it("maps vaccine, occurrence with its offset, lot and dose", () => {
    expect(normalizeOne("immunizations", immunization)).toMatchObject({
      status: "completed",
      code: { text: "Influenza, seasonal" },
      occurrence: { type: "dateTime", value: "2022-10-01T10:00:00-05:00" },
      primarySource: true,
      lotNumber: "LOT42",
      dose: { value: 0.5, unit: "mL" },
      statusReason: null,
    });
  });

  it("keeps a free-text occurrence and a not-done reason", () => {
    const record = normalizeOne("immunizations", {
      ...immunization,
      occurrenceDateTime: undefined,
      status: "not-done",
      statusReason: { coding: [{ code: "PATOBJ", display: "patient objection" }] },
      occurrenceString: "childhood",
    });
    expect(record.occurrence).toEqual({ type: "text", value: "childhood" });
    expect(record.statusReason?.text).toBe("patient objection");
  });

  it("skips an immunization without a vaccine code", () => {
    expect(skipReason({ ...immunization, vaccineCode: {} })).toBe("Immunization has no vaccineCode");
  });
});
