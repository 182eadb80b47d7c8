import { describe, expect, it } from "vitest";
import { recordSchemas } from "../schemas";
import { ENCOUNTER_SKIP, normalizeBundle, normalizeResources } from "./resources";
import { TEST_SCOPE, TEST_SOURCE } from "@/test/normalizer";

const immunization = (id: string, lotNumber?: string) => ({
  resourceType: "Immunization",
  id,
  status: "completed",
  vaccineCode: { coding: [{ system: "http://hl7.org/fhir/sid/cvx", code: "140" }] },
  occurrenceDateTime: "2022-10-01",
  ...(lotNumber ? { lotNumber } : {}),
});

describe("normalizeBundle", () => {
  it("never throws on input that is not a Bundle", () => {
    for (const input of [null, undefined, 42, "Bundle", [], { resourceType: "Patient", id: "p" }]) {
      const result = normalizeBundle(input, TEST_SOURCE, TEST_SCOPE);
      expect(result.facts).toEqual([]);
      expect(result.skipped).toHaveLength(1);
      expect(result.skipped[0]!.reason).toBe("input is not a FHIR Bundle");
    }
  });

  it("ignores entries without a resource and reports resources that are not objects", () => {
    const bundle = {
      resourceType: "Bundle",
      entry: [null, { request: { method: "DELETE", url: "Condition/1" } }, { resource: "Patient" }, { resource: immunization("i") }],
    };
    const result = normalizeBundle(bundle, TEST_SOURCE, TEST_SCOPE);
    expect(result.facts).toHaveLength(1);
    expect(result.skipped).toEqual([{ resourceType: "unknown", resourceId: null, reason: "entry is not a FHIR resource object" }]);
    expect(normalizeBundle({ resourceType: "Bundle", entry: "nope" }, TEST_SOURCE, TEST_SCOPE)).toEqual({ facts: [], skipped: [], context: [] });
  });
});

describe("normalizeResources", () => {
  it("skips an Encounter and an object without a type, and lists other types as context, each with a reason", () => {
    const result = normalizeResources(
      [{ resourceType: "Encounter", id: "e" }, { resourceType: "Medication", id: "m" }, { id: "no-type" }],
      TEST_SOURCE,
      TEST_SCOPE,
    );
    expect(result).toEqual({
      facts: [],
      skipped: [
        { resourceType: "Encounter", resourceId: "e", reason: ENCOUNTER_SKIP },
        { resourceType: "unknown", resourceId: "no-type", reason: "resource has no resourceType" },
      ],
      context: [
        { resourceType: "Medication", resourceId: "m", reason: "not one of the ten categories; read only where other resources reference it" },
      ],
    });
  });

  it("reports a resource whose fields cannot even be read instead of throwing", () => {
    const hostile = { resourceType: "Immunization", id: "h" };
    Object.defineProperty(hostile, "vaccineCode", { enumerable: true, get: () => { throw new Error("boom"); } });
    const result = normalizeResources([hostile, immunization("ok")], TEST_SOURCE, TEST_SCOPE);
    expect(result.facts).toHaveLength(1);
    expect(result.skipped).toEqual([{ resourceType: "Immunization", resourceId: "h", reason: "Immunization could not be read: boom" }]);
  });

  it("derives record ids from scope, category and fact key, never from the resource id", () => {
    const first = normalizeResources([immunization("a")], TEST_SOURCE, TEST_SCOPE).facts[0]!;
    const renamed = normalizeResources([immunization("b")], { sourceId: "src_other", sourceName: "Other" }, TEST_SCOPE).facts[0]!;
    const otherSubject = normalizeResources([immunization("a")], TEST_SOURCE, "u_someoneelse").facts[0]!;
    expect(renamed.record.recordId).toBe(first.record.recordId);
    expect(renamed.factKey).toBe(first.factKey);
    expect(otherSubject.record.recordId).not.toBe(first.record.recordId);
    expect(first.record.sources).toEqual([{ ...TEST_SOURCE, resourceType: "Immunization", resourceId: "a" }]);
  });

  it("gives two resources of one source with the same clinical key distinct, source-independent keys", () => {
    const pair = [immunization("a", "LOT-1"), immunization("b", "LOT-2")];
    const { facts } = normalizeResources(pair, TEST_SOURCE, TEST_SCOPE);
    expect(new Set(facts.map((fact) => fact.factKey)).size).toBe(2);
    const sameContentElsewhere = normalizeResources(
      [immunization("x", "LOT-2"), immunization("y", "LOT-1")],
      { sourceId: "src_other", sourceName: "Other" },
      TEST_SCOPE,
    ).facts;
    expect(sameContentElsewhere.map((fact) => fact.factKey).sort()).toEqual(facts.map((fact) => fact.factKey).sort());
  });

  it("falls back to resource ids, then order, for identical resources within one source", () => {
    const { facts } = normalizeResources([immunization("a"), immunization("b"), immunization("c")], TEST_SOURCE, TEST_SCOPE);
    expect(new Set(facts.map((fact) => fact.record.recordId)).size).toBe(3);
    expect(facts.map((fact) => fact.factKey).every((key) => /\|resource:[abc]$/.test(key))).toBe(true);
    const repeated = normalizeResources([immunization("a"), immunization("a")], TEST_SOURCE, TEST_SCOPE).facts;
    expect(new Set(repeated.map((fact) => fact.record.recordId)).size).toBe(2);
  });

  it("produces records that pass their category schema, and nothing for a non-array", () => {
    const { facts } = normalizeResources([immunization("a"), { resourceType: "Patient" }], TEST_SOURCE, TEST_SCOPE);
    for (const fact of facts) expect(() => recordSchemas[fact.category].parse(fact.record)).not.toThrow();
    expect(normalizeResources("nope" as unknown as unknown[], TEST_SOURCE, TEST_SCOPE)).toEqual({ facts: [], skipped: [], context: [] });
  });
});
