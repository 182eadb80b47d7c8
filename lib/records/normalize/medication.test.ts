import { describe, expect, it } from "vitest";
import { normalizeBundle } from "./resources";
import { normalizeOne, skipReason, TEST_SCOPE, TEST_SOURCE } from "@/test/normalizer";

const metformin = {
  coding: [{ system: "http://www.nlm.nih.gov/research/umls/rxnorm", code: "860975", display: "metformin 500 MG" }],
};

const request = {
  resourceType: "MedicationRequest",
  id: "mr1",
  status: "active",
  intent: "order",
  medicationCodeableConcept: metformin,
  authoredOn: "2021-06-01T09:30:00-04:00",
  requester: { reference: "Practitioner/dr1" },
  reasonReference: [{ reference: "Condition/c1" }],
  dosageInstruction: [
    {
      text: "500 mg twice daily",
      route: { coding: [{ system: "http://snomed.info/sct", code: "26643006", display: "Oral" }] },
      timing: { repeat: { frequency: 2, period: 1, periodUnit: "d" } },
      doseAndRate: [{ doseQuantity: { value: 500, unit: "mg", system: "http://unitsofmeasure.org", code: "mg" } }],
      asNeededBoolean: false,
    },
  ],
};
const withoutInline = { ...request, medicationCodeableConcept: undefined };
const practitioner = { resourceType: "Practitioner", id: "dr1", name: [{ family: "House", given: ["Greg"], prefix: ["Dr."] }] };
const condition = { resourceType: "Condition", id: "c1", code: { text: "Type 2 diabetes" } };

describe("normalizeMedicationRequest", () => {
  it("maps the order with dosage, requester and reasons resolved from other resources", () => {
    const record = normalizeOne("medications", request, [practitioner]);
    expect(record).toMatchObject({
      kind: "request",
      status: "active",
      intent: "order",
      authoredOn: "2021-06-01T09:30:00-04:00",
      effective: null,
      code: { text: "metformin 500 MG", codings: [{ code: "860975" }] },
      requester: "Dr. Greg House",
      dosages: [
        {
          text: "500 mg twice daily",
          asNeeded: false,
          route: { text: "Oral" },
          dose: { value: 500, unit: "mg", code: "mg" },
          frequency: { timesPerPeriod: 2, period: 1, periodUnit: "d" },
        },
      ],
    });
    const withCondition = normalizeOne("medications", request, [practitioner, condition]);
    expect(withCondition.reasonCodes).toEqual([{ text: "Type 2 diabetes", codings: [] }]);
  });

  it("resolves a contained Medication", () => {
    const record = normalizeOne("medications", {
      ...withoutInline,
      contained: [{ resourceType: "Medication", id: "med", code: metformin }],
      medicationReference: { reference: "#med" },
    });
    expect(record.code.codings).toEqual(metformin.coding);
  });

  it("resolves a Medication elsewhere in the bundle by its urn:uuid fullUrl, with the same fact key as inline", () => {
    const bundle = {
      resourceType: "Bundle",
      type: "transaction",
      entry: [
        { fullUrl: "urn:uuid:m-1", resource: { ...withoutInline, medicationReference: { reference: "urn:uuid:med-1" } } },
        { fullUrl: "urn:uuid:med-1", resource: { resourceType: "Medication", id: "med-1", code: metformin } },
      ],
    };
    const result = normalizeBundle(bundle, TEST_SOURCE, TEST_SCOPE);
    expect(result.skipped).toEqual([]);
    expect(result.facts).toHaveLength(1);
    expect(result.facts[0]!.record.recordId).toBe(normalizeOne("medications", request).recordId);
    expect(result.facts[0]!.record.code).toEqual({ text: "metformin 500 MG", codings: metformin.coding });
  });

  it("falls back to the reference's display, and skips a request naming no medication", () => {
    const record = normalizeOne("medications", { ...withoutInline, medicationReference: { reference: "Medication/gone", display: "Metformin" } });
    expect(record.code).toEqual({ text: "Metformin", codings: [] });
    expect(skipReason({ ...withoutInline, medicationReference: { reference: "Medication/gone" } })).toBe(
      "MedicationRequest names no medication",
    );
  });
});

describe("normalizeMedicationStatement", () => {
  it("maps a statement with its effective period and as-needed concept", () => {
    const record = normalizeOne("medications", {
      resourceType: "MedicationStatement",
      id: "ms1",
      status: "active",
      medicationCodeableConcept: metformin,
      effectivePeriod: { start: "2020-01" },
      dateAsserted: "2021-02-03",
      dosage: [{ asNeededCodeableConcept: { text: "pain" } }],
    });
    expect(record).toMatchObject({
      kind: "statement",
      intent: null,
      authoredOn: "2021-02-03",
      effective: { type: "period", start: "2020-01", end: null },
      dosages: [{ text: null, asNeeded: true, route: null, dose: null, frequency: null }],
    });
  });
});
