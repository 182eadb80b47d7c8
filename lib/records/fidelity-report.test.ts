import { describe, expect, it } from "vitest";
import { fidelityColumn, presentFidelityReport } from "./fidelity-report";
import { ENCOUNTER_SKIP, normalizeBundle, summarizeNormalization } from "./normalize";

const source = { sourceId: "src_test", sourceName: "Test Health" };

/** A completed import's stored row for a normalization, as run-source-import writes it. */
function storedImport(bundle: unknown) {
  const summary = summarizeNormalization(normalizeBundle(bundle, source, "scope"));
  return { id: "imp_test", finishedAt: new Date("2026-11-28T06:00:00.000Z"), recordCounts: summary.records, fidelity: fidelityColumn(summary) };
}

describe("an import's fidelity report", () => {
  it("lists records per category, skips per resource type and reason, context resources and warnings", () => {
    const bundle = {
      resourceType: "Bundle",
      type: "collection",
      entry: [
        { resource: { resourceType: "Encounter", id: "e1", status: "finished" } },
        { resource: { resourceType: "Observation", id: "o1", status: "entered-in-error", code: { text: "x" } } },
        { resource: { resourceType: "Condition", id: "c1", code: { coding: [{ system: "http://snomed.info/sct", code: "44054006", display: "Diabetes" }] } } },
        { resource: { resourceType: "Organization", id: "org1", name: "Clinic" } },
      ],
    };
    const report = presentFidelityReport(storedImport(bundle))!;
    expect(report).toMatchObject({ importId: "imp_test", finishedAt: "2026-11-28T06:00:00.000Z", context: [{ resourceType: "Organization", count: 1 }] });
    expect(report.records.conditions).toBe(1);
    expect(report.skipped).toEqual([
      { resourceType: "Encounter", reason: ENCOUNTER_SKIP, count: 1 },
      { resourceType: "Observation", reason: "Observation is entered-in-error", count: 1 },
    ]);
  });

  it("counts each distinct warning with the records that carry it", () => {
    const observation = (id: string) => ({
      resourceType: "Observation",
      id,
      status: "final",
      category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "laboratory" }] }],
      effectiveDateTime: `2026-01-0${id.length}`,
      code: { coding: [{ system: "http://loinc.org", code: "2339-0", display: "Glucose" }] },
      valueString: "{{value}}",
    });
    const report = presentFidelityReport(storedImport({ resourceType: "Bundle", type: "collection", entry: [{ resource: observation("a") }, { resource: observation("bb") }] }))!;
    expect(report.records.labs).toBe(2);
    expect(report.warnings).toEqual([{ warning: expect.stringContaining("valueString"), count: 2 }]);
  });

  it("narrows record counts to the categories a reader may see; none before an import completes or was stored with a report", () => {
    const row = storedImport({ resourceType: "Bundle", type: "collection", entry: [{ resource: { resourceType: "Condition", id: "c1", code: { text: "Asthma" } } }] });
    expect(presentFidelityReport(row, ["labs"])!.records.conditions).toBe(0);
    expect(presentFidelityReport(row, ["conditions"])!.records.conditions).toBe(1);
    expect(presentFidelityReport({ ...row, finishedAt: null })).toBeNull();
    expect(presentFidelityReport({ ...row, fidelity: null })).toBeNull();
    expect(presentFidelityReport(null)).toBeNull();
  });
});
