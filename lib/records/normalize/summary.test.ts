import { describe, expect, it } from "vitest";
import { summarizeNormalization } from "@/lib/records";
import { expectValidFhir, FHIR_VALIDATION_TIMEOUT_MS, normalizeAll } from "@/test/normalizer";

const laboratory = { coding: [{ system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "laboratory" }] };
const socialHistory = { coding: [{ system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "social-history" }] };
const observation = (id: string, category: object, loinc: string, extra: object = {}) => ({
  resourceType: "Observation",
  id,
  status: "final",
  category: [category],
  code: { coding: [{ system: "http://loinc.org", code: loinc }] },
  effectiveDateTime: `2024-01-0${id.length}`,
  ...extra,
});

const batch = [
  { resourceType: "Patient", id: "p1", gender: "female" },
  observation("o1", laboratory, "2339-0", { valueQuantity: { value: 97, unit: "mg/dL" } }),
  observation("o22", laboratory, "2339-0", { valueString: "{{value}}" }),
  observation("o333", laboratory, "8867-4", { valueQuantity: { value: 72, unit: "/min" } }),
  observation("o4444", socialHistory, "72166-2"),
  observation("o55555", socialHistory, "72166-2", { status: "entered-in-error" }),
  observation("o666666", socialHistory, "72166-2"),
  { resourceType: "Encounter", id: "e1", status: "finished", class: { code: "AMB" } },
];

describe("summarizeNormalization", () => {
  it("writes realistic FHIR R4", () => {
    for (const resource of batch) expectValidFhir(resource);
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("counts records per category (all ten), skips per reason and records with warnings", () => {
    expect(summarizeNormalization(normalizeAll(batch))).toEqual({
      records: {
        demographics: 1,
        conditions: 0,
        medications: 0,
        allergies: 0,
        immunizations: 0,
        labs: 2,
        vitals: 1,
        procedures: 0,
        documents: 0,
        claims: 0,
      },
      skipped: {
        "Encounter is not a record: the records that reference it carry its date, type and location": 1,
        "Observation is entered-in-error": 1,
        "observation category social-history is not one of the ten categories": 2,
      },
      recordsWithWarnings: 1,
      skippedByType: {
        Encounter: { "Encounter is not a record: the records that reference it carry its date, type and location": 1 },
        Observation: {
          "Observation is entered-in-error": 1,
          "observation category social-history is not one of the ten categories": 2,
        },
      },
      context: {},
      warnings: { "valueString held unfilled template text; read as null": 1 },
    });
  });

  it("lists categories in response order and reasons in a stable order, whatever the input order", () => {
    const summary = summarizeNormalization(normalizeAll([...batch].reverse()));
    expect(Object.keys(summary.records)).toEqual([
      "demographics", "conditions", "medications", "allergies", "immunizations", "labs", "vitals", "procedures", "documents", "claims",
    ]);
    expect(JSON.stringify(summary)).toBe(JSON.stringify(summarizeNormalization(normalizeAll(batch))));
  });

  it("summarizes an empty result as zeros", () => {
    const summary = summarizeNormalization({ facts: [], skipped: [], context: [] });
    expect(Object.values(summary.records).every((count) => count === 0)).toBe(true);
    expect(summary).toMatchObject({ skipped: {}, recordsWithWarnings: 0 });
  });
});
