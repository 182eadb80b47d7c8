import { expect } from "vitest";
import { validateFhirResource } from "@/test/fhir-validate";
import { normalizeResources, recordSchemas, type Category, type NormalizationResult, type NormalizedRecord, type SourceInfo } from "@/lib/records";

export const TEST_SOURCE: SourceInfo = { sourceId: "src_test", sourceName: "Test Health" };
export const TEST_SCOPE = "u_testsubject";

/** Normalizes resources as one source's batch, as the importer does. */
export function normalizeAll(resources: object[]): NormalizationResult {
  return normalizeResources(resources, TEST_SOURCE, TEST_SCOPE);
}

/** Normalizes one resource (with others available for references) and returns its single record. */
export function normalizeOne<C extends Category>(category: C, resource: object, others: object[] = []): NormalizedRecord<C> {
  const result = normalizeAll([resource, ...others]);
  expect(result.skipped.filter((skipped) => skipped.resourceId === idOf(resource))).toEqual([]);
  const facts = result.facts.filter((fact) => fact.category === category && fact.record.sources[0]?.resourceId === idOf(resource));
  expect(facts).toHaveLength(1);
  return recordSchemas[category].parse(facts[0]!.record) as NormalizedRecord<C>;
}

/** The reason one resource was skipped; fails when it became a record instead. */
export function skipReason(resource: object): string {
  const result = normalizeAll([resource]);
  expect(result.facts).toEqual([]);
  expect(result.skipped).toHaveLength(1);
  return result.skipped[0]!.reason;
}

// The first validation of a resource type compiles its part of HL7's schema (a Bundle's: all of it), which takes
// seconds on a busy machine, so tests that validate get more than vitest's default five.
export const FHIR_VALIDATION_TIMEOUT_MS = 60_000;

/** Fails unless the resource a test wrote is valid FHIR R4, so tests exercise what a real source could send. */
export function expectValidFhir(resource: object): void {
  expect(validateFhirResource(resource).errors).toEqual([]);
}

function idOf(resource: object): string | null {
  const id = (resource as { id?: unknown }).id;
  return typeof id === "string" ? id : null;
}
