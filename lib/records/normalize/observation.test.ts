import { describe, expect, it } from "vitest";
import { expectValidFhir, FHIR_VALIDATION_TIMEOUT_MS, normalizeOne, skipReason } from "@/test/normalizer";

const categoryOf = (code: string) => ({
  coding: [{ system: "http://terminology.hl7.org/CodeSystem/observation-category", code }],
});

const glucose = {
  resourceType: "Observation",
  id: "o1",
  status: "final",
  category: [categoryOf("laboratory")],
  code: { coding: [{ system: "http://loinc.org", code: "2339-0", display: "Glucose [Mass/volume] in Blood" }] },
  effectiveDateTime: "2023-03-04T07:15:00-08:00",
  issued: "2023-03-04T09:00:00.123-08:00",
  valueQuantity: { value: 130, comparator: ">", unit: "mg/dL", system: "http://unitsofmeasure.org", code: "mg/dL" },
  interpretation: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation", code: "H", display: "High" }] }],
  referenceRange: [
    { low: { value: 70, unit: "mg/dL", system: "http://unitsofmeasure.org", code: "mg/dL" }, high: { value: 99, unit: "mg/dL" }, type: { text: "normal" } },
    { text: "   " },
  ],
  specimen: { reference: "Specimen/s1" },
};
const specimen = { resourceType: "Specimen", id: "s1", type: { text: "Venous blood" } };

const bloodPressure = {
  resourceType: "Observation",
  id: "bp1",
  status: "final",
  category: [categoryOf("vital-signs")],
  code: { coding: [{ system: "http://loinc.org", code: "85354-9", display: "Blood pressure panel" }] },
  effectiveDateTime: "2023-03-04",
  component: [
    {
      code: { coding: [{ system: "http://loinc.org", code: "8480-6", display: "Systolic" }] },
      valueQuantity: { value: 120, unit: "mm[Hg]", code: "mm[Hg]" },
    },
    {
      code: { coding: [{ system: "http://loinc.org", code: "8462-4", display: "Diastolic" }] },
      dataAbsentReason: { coding: [{ code: "unknown", display: "Unknown" }] },
    },
  ],
};

describe("normalizeObservation", () => {
  it("maps a laboratory result with comparator, unit, ranges, interpretation and specimen", () => {
    const record = normalizeOne("labs", glucose, [specimen]);
    const ucum = "http://unitsofmeasure.org";
    expect(record).toEqual({
      recordId: expect.stringMatching(/^rec_/),
      category: "labs",
      status: "final",
      code: { text: "Glucose [Mass/volume] in Blood", codings: [{ system: "http://loinc.org", code: "2339-0", display: "Glucose [Mass/volume] in Blood" }] },
      categories: [{ system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "laboratory", display: null }],
      effective: { type: "dateTime", value: "2023-03-04T07:15:00-08:00" },
      issued: "2023-03-04T09:00:00.123-08:00",
      value: { type: "quantity", value: 130, comparator: ">", unit: "mg/dL", system: ucum, code: "mg/dL" },
      dataAbsentReason: null,
      components: [],
      referenceRanges: [
        {
          low: { value: 70, comparator: null, unit: "mg/dL", system: ucum, code: "mg/dL" },
          high: { value: 99, comparator: null, unit: "mg/dL", system: null, code: null },
          type: { text: "normal", codings: [] },
          text: null,
        },
      ],
      interpretations: [{ system: "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation", code: "H", display: "High" }],
      bodySite: null,
      specimen: { text: "Venous blood", codings: [] },
      notes: [],
      report: null,
      encounter: null,
      sources: [{ sourceId: "src_test", sourceName: "Test Health", resourceType: "Observation", resourceId: "o1" }],
    });
  });

  it("writes realistic FHIR R4 for the laboratory result", () => {
    expectValidFhir(glucose);
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("maps blood pressure components, including a missing reading's reason", () => {
    const record = normalizeOne("vitals", bloodPressure);
    expect(record.value).toBeNull();
    expect(record.effective).toEqual({ type: "dateTime", value: "2023-03-04" });
    expect(record.components).toEqual([
      {
        code: { text: "Systolic", codings: [{ system: "http://loinc.org", code: "8480-6", display: "Systolic" }] },
        value: { type: "quantity", value: 120, comparator: null, unit: "mm[Hg]", system: null, code: "mm[Hg]" },
        dataAbsentReason: null,
      },
      {
        code: { text: "Diastolic", codings: [{ system: "http://loinc.org", code: "8462-4", display: "Diastolic" }] },
        value: null,
        dataAbsentReason: { text: "Unknown", codings: [{ system: null, code: "unknown", display: "Unknown" }] },
      },
    ]);
  });

  it("tells blood pressures apart by their component values", () => {
    const first = normalizeOne("vitals", bloodPressure);
    const [systolic, diastolic] = bloodPressure.component;
    const higher = normalizeOne("vitals", {
      ...bloodPressure,
      component: [{ ...systolic, valueQuantity: { value: 150, unit: "mm[Hg]", code: "mm[Hg]" } }, diastolic],
    });
    const reordered = normalizeOne("vitals", { ...bloodPressure, id: "bp2", component: [diastolic, systolic] });
    expect(higher.recordId).not.toBe(first.recordId);
    expect(reordered.recordId).toBe(first.recordId);
  });

  it.each([
    [{ valueCodeableConcept: { coding: [{ system: "http://snomed.info/sct", code: "260385009", display: "Negative" }] } }, { type: "codeable", text: "Negative", codings: [{ system: "http://snomed.info/sct", code: "260385009", display: "Negative" }] }],
    [{ valueString: "trace" }, { type: "string", value: "trace" }],
    [{ valueBoolean: false }, { type: "boolean", value: false }],
    [{ valueInteger: 3 }, { type: "integer", value: 3 }],
    [{ valueRange: { low: { value: 1 }, high: { value: 2 } } }, { type: "range", low: { value: 1, comparator: null, unit: null, system: null, code: null }, high: { value: 2, comparator: null, unit: null, system: null, code: null } }],
    [{ valueRatio: { numerator: { value: 1 }, denominator: { value: 128 } } }, { type: "ratio", numerator: { value: 1, comparator: null, unit: null, system: null, code: null }, denominator: { value: 128, comparator: null, unit: null, system: null, code: null } }],
    [{ valueDateTime: "2023-01-01T00:00:00+09:00" }, { type: "dateTime", value: "2023-01-01T00:00:00+09:00" }],
    [{ valueTime: "10:30:00" }, { type: "time", value: "10:30:00" }],
    [{ valuePeriod: { start: "2023-01", end: "2023-02" } }, { type: "period", start: "2023-01", end: "2023-02" }],
    [{ valueSampledData: { data: "1 2 3" } }, null],
    [{ valueInteger: 2.5 }, null],
  ])("reads value[x] variant %j", (valueField, expected) => {
    expect(normalizeOne("labs", { ...glucose, valueQuantity: undefined, ...valueField }).value).toEqual(expected);
  });

  it("files an observation tagged both vital-signs and laboratory under vitals", () => {
    const record = normalizeOne("vitals", { ...glucose, category: [categoryOf("laboratory"), categoryOf("vital-signs")] });
    expect(record.categories.map((item) => item.code)).toEqual(["laboratory", "vital-signs"]);
  });

  it("skips other categories, missing categories and missing codes with a reason", () => {
    expect(skipReason({ ...glucose, category: [categoryOf("social-history")] })).toBe(
      "observation category social-history is not one of the ten categories",
    );
    expect(skipReason({ ...glucose, category: [categoryOf("survey"), categoryOf("sdoh"), categoryOf("survey")] })).toBe(
      "observation category survey, sdoh is not one of the ten categories",
    );
    expect(skipReason({ ...glucose, category: "laboratory" })).toBe("Observation has no category");
    expect(skipReason({ ...glucose, code: { coding: [{ system: "http://loinc.org" }] } })).toBe("Observation has no code");
    expect(skipReason({ ...glucose, status: "entered-in-error" })).toBe("Observation is entered-in-error");
  });

  it("identifies a lab by LOINC code, effective instant and value", () => {
    const base = normalizeOne("labs", glucose);
    const sameInstantInUtc = normalizeOne("labs", { ...glucose, id: "o2", effectiveDateTime: "2023-03-04T15:15:00Z" });
    const otherValue = normalizeOne("labs", { ...glucose, valueQuantity: { ...glucose.valueQuantity, value: 131 } });
    const otherTime = normalizeOne("labs", { ...glucose, effectiveDateTime: "2023-03-05T07:15:00-08:00" });
    expect(sameInstantInUtc.recordId).toBe(base.recordId);
    expect(otherValue.recordId).not.toBe(base.recordId);
    expect(otherTime.recordId).not.toBe(base.recordId);
  });
});

describe("normalizeObservation: vital-signs codes", () => {
  const socialHistory = categoryOf("social-history");
  const heartRate = {
    resourceType: "Observation",
    id: "hr1",
    status: "final",
    category: [categoryOf("laboratory")],
    code: { coding: [{ system: "http://loinc.org", code: "8867-4", display: "Heart rate" }] },
    effectiveDateTime: "2023-03-04T07:20:00-08:00",
    valueQuantity: { value: 72, unit: "beats/minute", system: "http://unitsofmeasure.org", code: "/min" },
  };

  it("writes realistic FHIR R4", () => {
    expectValidFhir(heartRate);
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it.each([
    ["85353-1", "Vital signs, weight, height, head circumference, oxygen saturation and BMI panel"],
    ["9279-1", "Respiratory rate"],
    ["8867-4", "Heart rate"],
    ["2708-6", "Oxygen saturation in Arterial blood"],
    ["59408-5", "Oxygen saturation in Arterial blood by Pulse oximetry"],
    ["8310-5", "Body temperature"],
    ["8302-2", "Body height"],
    ["9843-4", "Head Occipital-frontal circumference"],
    ["29463-7", "Body weight"],
    ["39156-5", "Body mass index (BMI) [Ratio]"],
    ["85354-9", "Blood pressure panel with all children optional"],
    ["8480-6", "Systolic blood pressure"],
    ["8462-4", "Diastolic blood pressure"],
  ])("files LOINC %s (%s) under vitals even in the laboratory category", (loinc, display) => {
    const record = normalizeOne("vitals", { ...heartRate, code: { coding: [{ system: "http://loinc.org", code: loinc, display }] } });
    expect(record.code.codings[0]?.code).toBe(loinc);
    expect(record.categories.map((item) => item.code)).toEqual(["laboratory"]);
  });

  it("files a vital-signs code under vitals with another category or none at all", () => {
    expect(normalizeOne("vitals", { ...heartRate, category: [socialHistory] }).category).toBe("vitals");
    expect(normalizeOne("vitals", { ...heartRate, category: undefined }).categories).toEqual([]);
  });

  it("recognizes the code among other codings, but only in the LOINC system", () => {
    const localFirst = { coding: [{ system: "urn:oid:1.2.3", code: "HR" }, ...heartRate.code.coding] };
    expect(normalizeOne("vitals", { ...heartRate, code: localFirst }).category).toBe("vitals");
    const notLoinc = { coding: [{ system: "http://example.org/codes", code: "8867-4" }] };
    expect(normalizeOne("labs", { ...heartRate, code: notLoinc }).category).toBe("labs");
  });

  it("keeps filing other codes by category: vital-signs without a vital code stays vitals, others stay skipped", () => {
    const painScore = { coding: [{ system: "http://loinc.org", code: "72514-3", display: "Pain severity" }] };
    expect(normalizeOne("vitals", { ...heartRate, category: [categoryOf("vital-signs")], code: painScore }).category).toBe("vitals");
    expect(skipReason({ ...heartRate, category: [socialHistory], code: painScore })).toBe(
      "observation category social-history is not one of the ten categories",
    );
  });
});

describe("normalizeObservation: notes", () => {
  const annotated = {
    ...glucose,
    note: [
      { authorString: "Lab tech", time: "2023-03-04T09:05:00-08:00", text: "Specimen slightly hemolyzed." },
      { text: "Repeat fasting test advised." },
      { text: "   " },
    ],
  };

  it("writes realistic FHIR R4", () => {
    expectValidFhir({ ...annotated, specimen: { display: "Venous blood" } });
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("carries the annotation texts of a lab, in order, leaving out blank ones", () => {
    expect(normalizeOne("labs", annotated).notes).toEqual(["Specimen slightly hemolyzed.", "Repeat fasting test advised."]);
    expect(normalizeOne("labs", glucose).notes).toEqual([]);
  });

  it("carries them on a vital sign too, without changing the record's identity", () => {
    const plain = normalizeOne("vitals", bloodPressure);
    const noted = normalizeOne("vitals", { ...bloodPressure, note: [{ text: "Taken after exercise." }] });
    expect(noted.notes).toEqual(["Taken after exercise."]);
    expect(noted.recordId).toBe(plain.recordId);
  });
});
