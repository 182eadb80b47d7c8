import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeBundle, normalizeResources, NORMALIZERS } from "./resources";
import { summarizeNormalization } from "./summary";
import type { NormalizationResult } from "./types";
import { expectValidFhir, FHIR_VALIDATION_TIMEOUT_MS, TEST_SCOPE, TEST_SOURCE } from "@/test/normalizer";

// Every resource of a type the normalizer reads must end as exactly one record or one reported skip: an import
// that silently drops a resource cannot be told apart from a source that never sent it. Counted per
// normalization, before mergeFacts, which is the only step that folds facts together (across sources).

const MAPPED_TYPES = Object.keys(NORMALIZERS);

function accounted(result: NormalizationResult): string[] {
  return [
    ...result.facts.flatMap((fact) => fact.record.sources.map((source) => `${source.resourceType}/${source.resourceId}`)),
    ...result.skipped.map((skipped) => `${skipped.resourceType}/${skipped.resourceId}`),
  ].sort();
}

function mappedIn(resources: unknown[]): string[] {
  return resources
    .flatMap((resource) => {
      if (typeof resource !== "object" || resource === null || Array.isArray(resource)) return ["unknown/null"];
      const { resourceType, id, tooDeep } = resource as { resourceType?: unknown; id?: unknown; tooDeep?: boolean };
      const resourceId = typeof id === "string" && id.trim() !== "" ? id : null;
      // An object without a type cannot be read at all, so it is a skip (an unmapped type is context instead).
      if (typeof resourceType !== "string" || resourceType.trim() === "") return [`unknown/${resourceId}`];
      if (!(MAPPED_TYPES.includes(resourceType) || tooDeep)) return [];
      return [`${resourceType}/${resourceId}`];
    })
    .sort();
}

function total(result: NormalizationResult): number {
  const summary = summarizeNormalization(result);
  return [...Object.values(summary.records), ...Object.values(summary.skipped)].reduce((sum, count) => sum + count, 0);
}

describe("every resource of a mapped type becomes a record or a reported skip", () => {
  it.each(MAPPED_TYPES)("%s with nothing but its type", (resourceType) => {
    const result = normalizeResources([{ resourceType, id: "bare" }], TEST_SOURCE, TEST_SCOPE);
    expect(accounted(result)).toEqual([`${resourceType}/bare`]);
    expect(total(result)).toBe(1);
  });

  it.each(MAPPED_TYPES)("%s with every field of the wrong JSON type", (resourceType) => {
    const garbage = Object.fromEntries(
      ["status", "code", "category", "type", "vaccineCode", "medicationCodeableConcept", "medicationReference", "presentedForm",
        "result", "content", "value", "valueQuantity", "component", "note", "extension", "name", "item", "total", "contained"]
        .map((field, index) => [field, [42, "text", true, null, [], {}, [[1]], { coding: "x" }][index % 8]]),
    );
    const result = normalizeResources([{ ...garbage, resourceType, id: "garbage" }], TEST_SOURCE, TEST_SCOPE);
    expect(accounted(result)).toEqual([`${resourceType}/garbage`]);
  });

  it("holds for arbitrary batches of mapped and unmapped resources, references between them included", () => {
    const id = fc.constantFrom("a", "b", "c", "{{id}}");
    const reference = id.map((target) => ({ reference: `Observation/${target}` }));
    const attachment = fc.record(
      { url: fc.constantFrom("https://ehr.example.org/Binary/1", "{{url}}"), data: fc.constantFrom("aGVsbG8=", "${data}"), contentType: fc.constantFrom("text/plain") },
      { requiredKeys: [] },
    );
    const concept = fc.record(
      { coding: fc.array(fc.record({ system: fc.constantFrom("http://loinc.org", "http://snomed.info/sct"), code: fc.constantFrom("8867-4", "2339-0", "{{code}}", "") }, { requiredKeys: [] })), text: fc.string() },
      { requiredKeys: [] },
    );
    const field = fc.oneof(fc.jsonValue(), concept, fc.array(concept), fc.array(reference), fc.array(attachment), fc.constantFrom("final", "entered-in-error", "{entry.status}"));
    const resource = fc
      .tuple(
        fc.oneof(fc.constantFrom(...MAPPED_TYPES), fc.constantFrom("Encounter", "Medication", "Practitioner", "Bundle")),
        fc.option(id, { nil: undefined }),
        fc.dictionary(
          fc.constantFrom("status", "code", "category", "valueString", "valueQuantity", "medicationCodeableConcept", "medicationReference",
            "presentedForm", "result", "content", "type", "vaccineCode", "note", "extension", "effectiveDateTime", "whenHandedOver", "entry"),
          field,
          { maxKeys: 8 },
        ),
      )
      .map(([resourceType, resourceId, fields]) => ({ ...fields, resourceType, ...(resourceId === undefined ? {} : { id: resourceId }) }));
    const nestedBundle = fc
      .array(resource, { maxLength: 4 })
      .map((resources) => ({ resourceType: "Bundle", type: "collection", entry: resources.map((inner) => ({ resource: inner })) }));
    const batch = fc.array(
      fc.oneof({ weight: 8, arbitrary: resource }, { weight: 1, arbitrary: nestedBundle }, { weight: 1, arbitrary: fc.jsonValue() }),
      { maxLength: 12 },
    );

    fc.assert(
      fc.property(batch, (resources) => {
        // A nested Bundle's resources are read in its place, so they count as the batch's own.
        const result = normalizeResources(resources, TEST_SOURCE, TEST_SCOPE);
        const expected = mappedIn(resources.flatMap((resource) => nestedResources(resource)));
        expect(accounted(result)).toEqual(expected);
        expect(total(result)).toBe(expected.length);
      }),
      { numRuns: 300 },
    );
  }, 30_000);
});

describe("nested Bundles", () => {
  const immunization = {
    resourceType: "Immunization",
    id: "imm1",
    status: "completed",
    vaccineCode: { coding: [{ system: "http://hl7.org/fhir/sid/cvx", code: "140", display: "Influenza, seasonal, injectable" }] },
    patient: { reference: "Patient/p1" },
    occurrenceDateTime: "2023-10-02",
  };
  const documentBundle = {
    resourceType: "Bundle",
    id: "ccda-1",
    type: "collection",
    entry: [{ fullUrl: "urn:uuid:0b6f6f2e-8f0a-4a44-9d07-5d2b1c3f0001", resource: immunization }],
  };

  it("writes realistic FHIR R4", () => {
    expectValidFhir({ resourceType: "Bundle", type: "collection", entry: [{ resource: documentBundle }] });
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("reads the resources of a Bundle inside a Bundle, as a C-CDA conversion's collection of documents sends them", () => {
    const outer = { resourceType: "Bundle", type: "collection", entry: [{ resource: documentBundle }] };
    const result = normalizeBundle(outer, TEST_SOURCE, TEST_SCOPE);
    expect(accounted(result)).toEqual(["Immunization/imm1"]);
  });

  it("reads a Bundle passed among plain resources, and reports one nested too deep instead of dropping it", () => {
    expect(accounted(normalizeResources([documentBundle], TEST_SOURCE, TEST_SCOPE))).toEqual(["Immunization/imm1"]);
    let deep: object = documentBundle;
    for (let level = 0; level < 5; level++) deep = { resourceType: "Bundle", id: `level-${level}`, type: "collection", entry: [{ resource: deep }] };
    const result = normalizeResources([deep], TEST_SOURCE, TEST_SCOPE);
    expect(result.facts).toEqual([]);
    expect(result.skipped).toEqual([{ resourceType: "Bundle", resourceId: "level-0", reason: "Bundle nested too deep to read" }]);
  });
});

/** The batch as the normalizer reads it: nested Bundles opened, and one nested too deep standing for itself. */
function nestedResources(resource: unknown, depth = 0): unknown[] {
  if (typeof resource !== "object" || resource === null || Array.isArray(resource)) return [resource];
  const { resourceType, id, entry } = resource as { resourceType?: unknown; id?: unknown; entry?: unknown };
  if (resourceType !== "Bundle") return [resource];
  if (depth >= 4) return [{ resourceType: "Bundle", id, tooDeep: true }];
  return (Array.isArray(entry) ? entry : [])
    .filter((item): item is { resource: unknown } => typeof item === "object" && item !== null && !Array.isArray(item) && item.resource !== undefined)
    .flatMap((item) => nestedResources(item.resource, depth + 1));
}
