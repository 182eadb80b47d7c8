import { describe, expect, it } from "vitest";
import { mergeFacts } from "./merge";
import { normalizeResources } from "./resources";
import { TEST_SCOPE } from "@/test/normalizer";
import type { NormalizedFact, SourceInfo } from "./types";

const primary: SourceInfo = { sourceId: "src_primary", sourceName: "Primary Clinic" };
const secondary: SourceInfo = { sourceId: "src_secondary", sourceName: "Secondary Hospital" };

const glucose = (id: string, display: string, value = 97) => ({
  resourceType: "Observation",
  id,
  status: "final",
  category: [{ coding: [{ code: "laboratory" }] }],
  code: { coding: [{ system: "http://loinc.org", code: "2339-0", display }] },
  effectiveDateTime: "2023-03-04T07:15:00-08:00",
  valueQuantity: { value, unit: "mg/dL", code: "mg/dL" },
});
const patient = (id: string) => ({ resourceType: "Patient", id, gender: "female" });
const allergy = { resourceType: "AllergyIntolerance", id: "al", code: { text: "Penicillin" } };

const factsOf = (source: SourceInfo, resources: object[]) => normalizeResources(resources, source, TEST_SCOPE).facts;

describe("mergeFacts", () => {
  it("merges the same fact from two sources into one record listing both, the first source's fields winning", () => {
    const fromPrimary = factsOf(primary, [glucose("a-1", "Glucose")]);
    const fromSecondary = factsOf(secondary, [glucose("b-9", "Glucose in blood")]);
    const merged = mergeFacts([fromPrimary, fromSecondary]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.record).toMatchObject({ code: { text: "Glucose" } });
    expect(merged[0]!.record.sources).toEqual([
      { sourceId: "src_primary", sourceName: "Primary Clinic", resourceType: "Observation", resourceId: "a-1" },
      { sourceId: "src_secondary", sourceName: "Secondary Hospital", resourceType: "Observation", resourceId: "b-9" },
    ]);
    expect(mergeFacts([fromSecondary, fromPrimary])[0]!.record).toMatchObject({ code: { text: "Glucose in blood" } });
  });

  it("keeps distinct facts apart and orders by category, then record id", () => {
    const merged = mergeFacts([
      factsOf(primary, [glucose("a-1", "Glucose", 97), allergy]),
      factsOf(secondary, [glucose("b-2", "Glucose", 140), patient("p")]),
    ]);
    expect(merged.map((fact) => fact.category)).toEqual(["demographics", "allergies", "labs", "labs"]);
    const labIds = merged.filter((fact) => fact.category === "labs").map((fact) => fact.record.recordId);
    expect(labIds).toEqual([...labIds].sort());
    expect(merged.every((fact) => fact.record.sources.length === 1)).toBe(true);
  });

  it("does not list a source resource twice, and leaves its inputs untouched", () => {
    const facts = factsOf(primary, [glucose("a-1", "Glucose")]);
    const snapshot: NormalizedFact[] = structuredClone(facts);
    const merged = mergeFacts([facts, facts, factsOf(secondary, [glucose("b-1", "Glucose")])]);
    expect(merged[0]!.record.sources.map((source) => source.sourceId)).toEqual(["src_primary", "src_secondary"]);
    expect(facts).toEqual(snapshot);
  });

  it("is deterministic and returns nothing for nothing", () => {
    const input = [factsOf(primary, [glucose("a", "G"), allergy, patient("p")]), factsOf(secondary, [patient("q")])];
    expect(mergeFacts(input)).toEqual(mergeFacts(structuredClone(input)));
    expect(mergeFacts([])).toEqual([]);
    expect(mergeFacts([[], []])).toEqual([]);
  });
});
