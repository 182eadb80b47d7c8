import { describe, expect, it } from "vitest";
import type { NormalizedRecord } from "@/lib/records";
import { clinicalTimeText, observationValueText, recordRow, systemName } from "./record-summary";

const loinc = { text: null, codings: [{ system: "http://loinc.org", code: "4548-4", display: "Hemoglobin A1c" }] };

describe("record rows", () => {
  it("names code systems", () => {
    expect(systemName("http://loinc.org")).toBe("LOINC");
    expect(systemName("http://snomed.info/sct")).toBe("SNOMED CT");
    expect(systemName("http://www.nlm.nih.gov/research/umls/rxnorm")).toBe("RxNorm");
    expect(systemName(null)).toBe("Local");
  });

  it("keeps clinical times exactly as sent, partial dates and offsets included", () => {
    expect(clinicalTimeText({ type: "dateTime", value: "2025-03-18T10:20:00-04:00" })).toBe("2025-03-18T10:20:00-04:00");
    expect(clinicalTimeText({ type: "dateTime", value: "2019-06" })).toBe("2019-06");
    expect(clinicalTimeText({ type: "period", start: "2020", end: null })).toBe("2020 – …");
  });

  it("shows values with their units and comparators", () => {
    expect(observationValueText({ type: "quantity", value: 7.2, comparator: null, unit: "%", system: null, code: "%" })).toBe("7.2 %");
    expect(observationValueText({ type: "quantity", value: 0.5, comparator: "<", unit: null, system: null, code: "mg/dL" })).toBe("<0.5 mg/dL");
    expect(observationValueText({ type: "codeable", text: "Negative", codings: [] })).toBe("Negative");
  });

  it("reads a lab record as label, codes with displays, value, time and status", () => {
    const record = {
      recordId: "rec_000000000000000000000001",
      category: "labs",
      status: "final",
      code: loinc,
      categories: [],
      effective: { type: "dateTime", value: "2025-03-18T10:20:00-04:00" },
      issued: null,
      value: { type: "quantity", value: 7.2, comparator: null, unit: "%", system: null, code: null },
      dataAbsentReason: null,
      components: [],
      referenceRanges: [],
      interpretations: [{ system: null, code: "H", display: "High" }],
      bodySite: null,
      specimen: null,
      notes: [],
      report: null,
      encounter: null,
      sources: [{ sourceId: "src_1", sourceName: "Riverbend", resourceType: "Observation", resourceId: "o1" }],
    } as NormalizedRecord;
    expect(recordRow(record)).toEqual({
      label: "Hemoglobin A1c",
      codes: [{ system: "LOINC", code: "4548-4", display: "Hemoglobin A1c" }],
      value: "7.2 % (H)",
      time: "2025-03-18T10:20:00-04:00",
      status: "final",
    });
  });
});
