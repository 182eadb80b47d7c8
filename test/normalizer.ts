import { expect } from "vitest";
import { normalizeResources, recordSchemas, type Category, type NormalizationResult, type NormalizedRecord, type SourceInfo } from "@/lib/records";

export const TEST_SOURCE: SourceInfo = { sourceId: "src_test", sourceName: "Test Health" };
export const TEST_SCOPE = "u_testsubject";

/** Normalizes one resource (with others available for references) and returns its single record. */
export function normalizeOne<C extends Category>(category: C, resource: object, others: object[] = []): NormalizedRecord<C> {
  const result = normalizeResources([resource, ...others], TEST_SOURCE, TEST_SCOPE);
  expect(result.skipped).toEqual([]);
  const facts = result.facts.filter((fact) => fact.category === category);
  expect(facts).toHaveLength(1);
  return recordSchemas[category].parse(facts[0]!.record) as NormalizedRecord<C>;
}

/** The reason one resource was skipped; fails when it became a record instead. */
export function skipReason(resource: object): string {
  const result: NormalizationResult = normalizeResources([resource], TEST_SOURCE, TEST_SCOPE);
  expect(result.facts).toEqual([]);
  expect(result.skipped).toHaveLength(1);
  return result.skipped[0]!.reason;
}
