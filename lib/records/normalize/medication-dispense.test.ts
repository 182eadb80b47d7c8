import { describe, expect, it } from "vitest";
import { normalizeBundle } from "./resources";
import { expectValidFhir, FHIR_VALIDATION_TIMEOUT_MS, normalizeOne, skipReason, TEST_SCOPE, TEST_SOURCE } from "@/test/normalizer";

const furosemide = {
  coding: [{ system: "http://www.nlm.nih.gov/research/umls/rxnorm", code: "1719286", display: "10 ML Furosemide 10 MG/ML Injection" }],
  text: "10 ML Furosemide 10 MG/ML Injection",
};

// Shaped like the US Core MedicationDispense example, with the fields a pharmacy system fills in.
const dispense = {
  resourceType: "MedicationDispense",
  id: "md1",
  meta: { profile: ["http://hl7.org/fhir/us/core/StructureDefinition/us-core-medicationdispense"] },
  status: "completed",
  medicationCodeableConcept: furosemide,
  subject: { reference: "Patient/p1" },
  performer: [{ actor: { reference: "Practitioner/dr1", display: "Dr. Willena Oberbrunner" } }],
  authorizingPrescription: [{ reference: "MedicationRequest/mr1" }],
  type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/v3-ActCode", code: "FF", display: "First Fill" }] },
  quantity: { value: 100, unit: "ml", system: "http://unitsofmeasure.org", code: "mL" },
  daysSupply: { value: 30, unit: "Day", system: "http://unitsofmeasure.org", code: "d" },
  whenPrepared: "2021-05-30T16:20:00-04:00",
  whenHandedOver: "2021-05-31T10:20:00-04:00",
  dosageInstruction: [
    {
      text: "5 ml three times daily",
      timing: { repeat: { frequency: 3, period: 1, periodUnit: "d" } },
      route: { coding: [{ system: "http://snomed.info/sct", code: "26643006", display: "Oral route" }] },
      doseAndRate: [{ doseQuantity: { value: 5, unit: "ml", system: "http://unitsofmeasure.org", code: "mL" } }],
    },
  ],
};
const withoutInline = { ...dispense, medicationCodeableConcept: undefined };
const furosemideConcept = { text: furosemide.text, codings: furosemide.coding };

describe("normalizeMedicationDispense", () => {
  it("writes realistic FHIR R4", () => {
    expectValidFhir(dispense);
    expectValidFhir({
      ...withoutInline,
      contained: [{ resourceType: "Medication", id: "med", code: furosemide }],
      medicationReference: { reference: "#med" },
    });
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("maps a dispense: medication, quantity, days supply, status, dosage, handed over as its clinical time", () => {
    const record = normalizeOne("medications", dispense);
    expect(record).toMatchObject({
      category: "medications",
      kind: "dispense",
      status: "completed",
      code: furosemideConcept,
      intent: null,
      authoredOn: null,
      effective: { type: "dateTime", value: "2021-05-31T10:20:00-04:00" },
      quantity: { value: 100, comparator: null, unit: "ml", system: "http://unitsofmeasure.org", code: "mL" },
      daysSupply: { value: 30, comparator: null, unit: "Day", system: "http://unitsofmeasure.org", code: "d" },
      dosages: [
        {
          text: "5 ml three times daily",
          asNeeded: null,
          route: { text: "Oral route" },
          dose: { value: 5, unit: "ml" },
          frequency: { timesPerPeriod: 3, period: 1, periodUnit: "d" },
        },
      ],
      reasonCodes: [],
    });
  });

  it("names the medication from a contained Medication, a bundled one, or else the reference's display", () => {
    const contained = normalizeOne("medications", {
      ...withoutInline,
      contained: [{ resourceType: "Medication", id: "med", code: furosemide }],
      medicationReference: { reference: "#med" },
    });
    expect(contained.code).toEqual(furosemideConcept);

    const bundle = {
      resourceType: "Bundle",
      type: "collection",
      entry: [
        { fullUrl: "urn:uuid:2f6c2f5e-0d8c-4bb3-9a51-4f0ad5e3c001", resource: { ...withoutInline, medicationReference: { reference: "urn:uuid:2f6c2f5e-0d8c-4bb3-9a51-4f0ad5e3c002" } } },
        { fullUrl: "urn:uuid:2f6c2f5e-0d8c-4bb3-9a51-4f0ad5e3c002", resource: { resourceType: "Medication", id: "med-1", code: furosemide } },
      ],
    };
    expectValidFhir(bundle);
    const result = normalizeBundle(bundle, TEST_SOURCE, TEST_SCOPE);
    expect(result.skipped).toEqual([]);
    expect(result.facts.map((fact) => fact.record.recordId)).toEqual([contained.recordId]);

    const byDisplay = normalizeOne("medications", { ...withoutInline, medicationReference: { reference: "Medication/gone", display: "Furosemide" } });
    expect(byDisplay.code).toEqual({ text: "Furosemide", codings: [] });
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("keeps a declined dispense with its status, and skips one that names no medication", () => {
    const declined = normalizeOne("medications", { ...dispense, status: "declined", whenHandedOver: undefined });
    expect(declined).toMatchObject({ status: "declined", effective: null });
    expect(skipReason({ ...withoutInline, medicationReference: { reference: "Medication/gone" } })).toBe(
      "MedicationDispense names no medication",
    );
  });

  it("tells dispenses apart from the request they fill, and refills apart by their hand-over time", () => {
    const request = {
      resourceType: "MedicationRequest",
      id: "mr1",
      status: "active",
      intent: "order",
      medicationCodeableConcept: furosemide,
      subject: { reference: "Patient/p1" },
      authoredOn: "2021-05-31T10:20:00-04:00",
    };
    const first = normalizeOne("medications", dispense, [request]);
    const ordered = normalizeOne("medications", request, [dispense]);
    const refill = normalizeOne("medications", { ...dispense, id: "md2", whenHandedOver: "2021-06-30T10:20:00-04:00" });
    expect(new Set([first.recordId, ordered.recordId, refill.recordId]).size).toBe(3);
  });
});
