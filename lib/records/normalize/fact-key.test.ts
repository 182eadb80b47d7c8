import { describe, expect, it } from "vitest";
import { componentsKey, conceptKey, factKey, instantKey, timeKey } from "./fact-key";

describe("factKey", () => {
  it("joins parts readably and escapes separators so distinct part lists stay distinct", () => {
    expect(factKey(["patient"])).toBe("patient");
    expect(factKey(["loinc:2339-0", null, "97 mg/dL"])).toBe("loinc:2339-0||97 mg/dL");
    expect(factKey(["a|b", "c"])).not.toBe(factKey(["a", "b|c"]));
    expect(factKey(["a\\", "b"])).not.toBe(factKey(["a\\|b"]));
  });
});

describe("instantKey", () => {
  it("compares instants in UTC but leaves partial dates alone", () => {
    expect(instantKey("2020-01-01T10:00:00-05:00")).toBe("2020-01-01T15:00:00.000Z");
    expect(instantKey("2020-01-01T15:00:00.000+00:00")).toBe("2020-01-01T15:00:00.000Z");
    expect(instantKey("2020-01")).toBe("2020-01");
    expect(instantKey(null)).toBeNull();
  });
});

describe("conceptKey", () => {
  const loinc = { system: "http://loinc.org", code: "2339-0", display: "Glucose" };
  const local = { system: "urn:local", code: "GLU", display: "Glucose" };

  it("uses the most preferred system regardless of coding order or extra codings", () => {
    expect(conceptKey({ text: "x", codings: [local, loinc] }, ["http://loinc.org"])).toBe("loinc:2339-0");
    expect(conceptKey({ text: "y", codings: [loinc] }, ["http://loinc.org"])).toBe("loinc:2339-0");
    expect(conceptKey({ text: null, codings: [local] }, ["http://loinc.org"])).toBe("urn:local:GLU");
  });

  it("falls back to the lowercased text, ignoring data-absent-reason codings", () => {
    const absent = { system: "http://terminology.hl7.org/CodeSystem/data-absent-reason", code: "unknown", display: null };
    expect(conceptKey({ text: "Back Pain", codings: [absent] }, [])).toBe("back pain");
    expect(conceptKey(null, [])).toBeNull();
  });
});

describe("timeKey and componentsKey", () => {
  it("distinguishes time forms", () => {
    expect(timeKey({ type: "period", start: "2020-01-01T00:00:00+01:00", end: null })).toBe("2019-12-31T23:00:00.000Z/");
    expect(timeKey({ type: "text", value: "Childhood" })).toBe("childhood");
    expect(timeKey(null)).toBeNull();
  });

  it("ignores component order", () => {
    const systolic = { code: { text: "Systolic", codings: [{ system: "http://loinc.org", code: "8480-6", display: null }] }, value: { type: "integer" as const, value: 120 }, dataAbsentReason: null };
    const diastolic = { code: { text: "Diastolic", codings: [{ system: "http://loinc.org", code: "8462-4", display: null }] }, value: { type: "integer" as const, value: 80 }, dataAbsentReason: null };
    expect(componentsKey([systolic, diastolic])).toBe(componentsKey([diastolic, systolic]));
    expect(componentsKey([systolic, diastolic])).toBe("loinc:8462-4=integer 80,loinc:8480-6=integer 120");
    expect(componentsKey([])).toBeNull();
  });
});
