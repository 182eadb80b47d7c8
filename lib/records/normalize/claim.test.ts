import { describe, expect, it } from "vitest";
import { normalizeOne, skipReason } from "@/test/normalizer";

const claimType = { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "institutional" }] };
const checkup = { coding: [{ system: "http://snomed.info/sct", code: "162673000", display: "General examination" }] };

const claim = {
  resourceType: "Claim",
  id: "cl1",
  status: "active",
  type: claimType,
  use: "claim",
  identifier: [
    { system: "https://payer.example.org/claims", value: "CLM-1" },
    { system: "http://hl7.org/fhir/sid/us-ssn", value: "999-12-3456" },
  ],
  billablePeriod: { start: "2022-01-01T10:00:00-05:00", end: "2022-01-01T10:30:00-05:00" },
  created: "2022-01-01T10:30:00-05:00",
  provider: { reference: "Organization/org1" },
  diagnosis: [{ sequence: 1, diagnosisReference: { reference: "Condition/c1" } }],
  item: [{ sequence: 1, productOrService: checkup, servicedDate: "2022-01-01", net: { value: 100, currency: "USD" } }],
  total: { value: 100, currency: "USD" },
};

const explanationOfBenefit = {
  ...claim,
  resourceType: "ExplanationOfBenefit",
  id: "eob1",
  outcome: "complete",
  insurer: { display: "Acme Insurance" },
  total: [
    { category: { coding: [{ code: "submitted" }] }, amount: { value: 100, currency: "USD" } },
    { category: { coding: [{ code: "benefit" }] }, amount: { value: 80, currency: "USD" } },
  ],
  payment: { amount: { value: 80, currency: "USD" } },
  item: [{ ...claim.item[0], adjudication: [{ category: { coding: [{ code: "benefit" }] }, amount: { value: 80, currency: "USD" } }] }],
};

const others = [
  { resourceType: "Organization", id: "org1", name: "General Hospital" },
  { resourceType: "Condition", id: "c1", code: { text: "Hypertension" } },
];

describe("normalizeClaim", () => {
  it("maps a Claim with its single total, diagnoses and items, dropping SSN identifiers", () => {
    expect(normalizeOne("claims", claim, others)).toMatchObject({
      kind: "claim",
      status: "active",
      use: "claim",
      outcome: null,
      code: { codings: [{ code: "institutional" }] },
      identifiers: [{ system: "https://payer.example.org/claims", value: "CLM-1", type: null }],
      billablePeriod: { start: "2022-01-01T10:00:00-05:00", end: "2022-01-01T10:30:00-05:00" },
      provider: "General Hospital",
      totals: [{ category: null, amount: { value: 100, currency: "USD" } }],
      payment: null,
      diagnoses: [{ text: "Hypertension", codings: [] }],
      items: [{ sequence: 1, service: { text: "General examination" }, serviced: { type: "dateTime", value: "2022-01-01" }, net: { value: 100, currency: "USD" }, adjudications: [] }],
    });
  });

  it("maps an ExplanationOfBenefit's totals by category, payment and adjudications", () => {
    const record = normalizeOne("claims", explanationOfBenefit, others);
    expect(record).toMatchObject({
      kind: "explanationOfBenefit",
      outcome: "complete",
      insurer: "Acme Insurance",
      totals: [
        { category: { codings: [{ code: "submitted" }] }, amount: { value: 100 } },
        { category: { codings: [{ code: "benefit" }] }, amount: { value: 80 } },
      ],
      payment: { value: 80, currency: "USD" },
      items: [{ adjudications: [{ category: { codings: [{ code: "benefit" }] }, amount: { value: 80, currency: "USD" } }] }],
    });
    expect(record.recordId).not.toBe(normalizeOne("claims", claim, others).recordId);
  });

  it("tells apart pharmacy claims of one visit by the medication prescribed", () => {
    const prescription = (id: string, code: string) => ({
      resourceType: "MedicationRequest",
      id,
      medicationCodeableConcept: { coding: [{ system: "http://www.nlm.nih.gov/research/umls/rxnorm", code }] },
    });
    const pharmacyClaim = (prescriptionId: string) => ({ ...claim, prescription: { reference: `MedicationRequest/${prescriptionId}` } });
    const first = normalizeOne("claims", pharmacyClaim("rx1"), [prescription("rx1", "111")]);
    const second = normalizeOne("claims", pharmacyClaim("rx2"), [prescription("rx2", "222")]);
    expect(first.recordId).not.toBe(second.recordId);
  });

  it("skips a claim without a type", () => {
    expect(skipReason({ ...claim, type: undefined })).toBe("Claim has no type");
  });
});
