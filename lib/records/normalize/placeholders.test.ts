import { describe, expect, it } from "vitest";
import { isUnfilledTemplate, withoutPlaceholders } from "./placeholders";
import { expectValidFhir, FHIR_VALIDATION_TIMEOUT_MS, normalizeAll, normalizeOne } from "@/test/normalizer";

describe("isUnfilledTemplate", () => {
  it.each([
    ["{entry.value}", "valueString"],
    ["{{value}}", "valueString"],
    ["{{ patient.name.given }}", "display"],
    ["{{{html}}}", "text"],
    ["${x}", "valueString"],
    ["#{dose}", "text"],
    ["%{unit}", "unit"],
    ["<%= result %>", "valueString"],
    ["{% value %}", "valueString"],
    ["{value}", "display"],
    ["{{given}} {{family}}", "text"],
    [" {{value}} ", "valueString"],
    ["{{unit}}", "unit"],
    ["{entry.unit}", "code"],
  ])("%j in %s is a placeholder", (text, field) => {
    expect(isUnfilledTemplate(text, field)).toBe(true);
  });

  it.each([
    ["{score}", "unit"],
    ["{tbl}", "code"],
    ["{pack-years}", "code"],
    ["{beats}/min", "unit"],
    ["trace", "valueString"],
    ["1+", "valueString"],
    ["{1+}", "valueString"],
    ["Negative {see note}", "valueString"],
    ["Glucose {{unit}}", "display"],
    ["{}", "valueString"],
    ["$5 copay", "text"],
  ])("%j in %s is not", (text, field) => {
    expect(isUnfilledTemplate(text, field)).toBe(false);
  });
});

describe("withoutPlaceholders", () => {
  it("removes placeholder strings wherever they are, keeps identity fields, and names each path", () => {
    const resource = {
      resourceType: "Observation",
      id: "{{id}}",
      code: { coding: [{ system: "http://loinc.org", code: "2339-0", display: "{{display}}" }], text: "Glucose" },
      valueString: "{entry.value}",
      note: [{ text: "${note}" }, { text: "Fasting" }],
    };
    const { resource: cleaned, paths } = withoutPlaceholders(resource);
    expect(cleaned).toEqual({
      resourceType: "Observation",
      id: "{{id}}",
      code: { coding: [{ system: "http://loinc.org", code: "2339-0" }], text: "Glucose" },
      note: [{}, { text: "Fasting" }],
    });
    expect(paths).toEqual(["code.coding[0].display", "valueString", "note[0].text"]);
    expect(resource.valueString).toBe("{entry.value}");
  });

  it("returns the very same object when there is nothing to remove", () => {
    const resource = { resourceType: "Observation", valueQuantity: { value: 9, unit: "{score}", code: "{score}" } };
    expect(withoutPlaceholders(resource)).toEqual({ resource, paths: [] });
    expect(withoutPlaceholders(resource).resource).toBe(resource);
  });
});

describe("normalizing resources with unfilled template text", () => {
  const templatedLab = {
    resourceType: "Observation",
    id: "lab1",
    status: "final",
    category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "laboratory" }] }],
    code: { coding: [{ system: "http://loinc.org", code: "5778-6", display: "{{code.display}}" }], text: "{entry.code}" },
    effectiveDateTime: "2022-08-01T08:00:00-05:00",
    valueString: "{entry.value}",
    note: [{ text: "{{note}}" }],
  };
  const templatedScore = {
    ...templatedLab,
    id: "lab2",
    code: { coding: [{ system: "http://loinc.org", code: "2345-7", display: "Glucose [Mass/volume] in Serum or Plasma" }] },
    valueString: undefined,
    valueQuantity: { value: 95, unit: "${unit}", system: "http://unitsofmeasure.org", code: "mg/dL" },
    interpretation: [{ text: "<%= flag %>" }],
    note: undefined,
  };

  it("writes realistic FHIR R4 (placeholders are valid strings, which is why they get through)", () => {
    expectValidFhir(templatedLab);
    expectValidFhir(templatedScore);
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("never serves a placeholder as a value, display or note, and says on the record where each one was", () => {
    const record = normalizeOne("labs", templatedLab);
    expect(record.value).toBeNull();
    expect(record.code).toEqual({ text: null, codings: [{ system: "http://loinc.org", code: "5778-6", display: null }] });
    expect(record.notes).toEqual([]);
    expect(record.warnings).toEqual([
      "code.coding[0].display held unfilled template text; read as null",
      "code.text held unfilled template text; read as null",
      "valueString held unfilled template text; read as null",
      "note[0].text held unfilled template text; read as null",
    ]);
    expect(JSON.stringify(record)).not.toMatch(/\{\{|\{entry/);
  });

  it("keeps the rest of a quantity when only its unit is a placeholder", () => {
    const record = normalizeOne("labs", templatedScore);
    expect(record.value).toEqual({ type: "quantity", value: 95, comparator: null, unit: null, system: "http://unitsofmeasure.org", code: "mg/dL" });
    expect(record.interpretations).toEqual([]);
    expect(record.warnings).toEqual([
      "valueQuantity.unit held unfilled template text; read as null",
      "interpretation[0].text held unfilled template text; read as null",
    ]);
  });

  it("gives the same fact key as the same result sent without the placeholder", () => {
    const withoutValue = { ...templatedLab, valueString: undefined, code: { coding: [{ system: "http://loinc.org", code: "5778-6" }] }, note: undefined };
    expect(normalizeOne("labs", templatedLab).recordId).toBe(normalizeOne("labs", withoutValue).recordId);
  });

  it("names a referenced resource whose placeholder was dropped, and never puts its text on the record", () => {
    const request = {
      resourceType: "MedicationRequest",
      id: "mr1",
      status: "active",
      intent: "order",
      subject: { reference: "Patient/p1" },
      medicationReference: { reference: "Medication/med1", display: "{{medication.name}}" },
      authoredOn: "2022-08-01",
      dosageInstruction: [{ text: "{{sig}}" }],
    };
    const medication = {
      resourceType: "Medication",
      id: "med1",
      code: { coding: [{ system: "http://www.nlm.nih.gov/research/umls/rxnorm", code: "197361", display: "{{rx.display}}" }], text: "Amlodipine 5 MG Oral Tablet" },
    };
    expectValidFhir(request);
    expectValidFhir(medication);
    const record = normalizeOne("medications", request, [medication]);
    expect(record.code).toEqual({
      text: "Amlodipine 5 MG Oral Tablet",
      codings: [{ system: "http://www.nlm.nih.gov/research/umls/rxnorm", code: "197361", display: null }],
    });
    expect(record.dosages[0]?.text).toBeNull();
    expect(record.warnings).toEqual([
      "medicationReference.display held unfilled template text; read as null",
      "dosageInstruction[0].text held unfilled template text; read as null",
      "Medication/med1 code.coding[0].display held unfilled template text; read as null",
    ]);
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("reads the US Core birth sex and names the same way", () => {
    const patient = {
      resourceType: "Patient",
      id: "p1",
      extension: [{ url: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex", valueCode: "{{birthsex}}" }],
      name: [{ family: "Quigley", given: ["{{given}}", "Ann"] }],
      address: [{ city: "${city}", state: "MA" }],
    };
    expectValidFhir(patient);
    const record = normalizeOne("demographics", patient);
    expect(record).toMatchObject({ birthSex: null, name: { text: "Ann Quigley", given: ["Ann"] } });
    expect(record.addresses).toEqual([{ use: null, city: null, state: "MA", postalCode: null, country: null }]);
    expect(record.warnings).toHaveLength(3);
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("leaves records without placeholders with no warnings field at all", () => {
    const { facts } = normalizeAll([{ ...templatedScore, valueQuantity: { value: 95, unit: "mg/dL" }, interpretation: undefined }]);
    expect(facts[0]?.record).not.toHaveProperty("warnings");
  });
});
