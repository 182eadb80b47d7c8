import { describe, expect, it } from "vitest";
import { servedResource, servedText } from "./read-resources";

const record = {
  type: "Observation",
  id: "rec-1",
  version: 3,
  updatedAt: new Date("2024-05-06T07:08:09.123Z"),
  sources: [
    { sourceId: "src_b", refs: [{ sourceId: "src_a", sourceName: 'Clinic "A"' }, { sourceId: "src_b" }] },
    { sourceId: "src_c", refs: [] },
  ] as never,
  sourceId: null,
  sourceName: null,
};

describe("servedText", () => {
  it("is JSON.stringify of servedResource, whether or not the stored resource keeps meta of its own", () => {
    const stored = [
      { resourceType: "Observation", id: "rec-1", status: "final", valueQuantity: { value: 1.5, unit: "mg/dL" }, note: [{ text: "line\nbreak \u2028 \"quoted\" é" }] },
      { resourceType: "Observation", id: "rec-1", meta: { profile: ["http://hl7.org/fhir/us/core/StructureDefinition/us-core-observation-lab"], tag: [{ system: "x", code: "y" }] }, status: "final" },
      { resourceType: "Observation", id: "rec-1", contained: [{ resourceType: "Practitioner", id: "p", meta: { versionId: "9" } }] },
      { resourceType: "Observation", id: "rec-1", code: { text: "meta" } },
      {},
    ];
    for (const resource of stored) {
      for (const row of [
        { ...record, resource: JSON.stringify(resource) },
        { ...record, sources: null, sourceId: "src_ctx", sourceName: "Hospital\\B", resource: JSON.stringify(resource) },
        { ...record, sources: [] as never, resource: JSON.stringify(resource) },
        // The export reads lastUpdated as PostgreSQL formats it (to_char), not as a Date.
        { ...record, updatedAt: "2024-05-06T07:08:09.120Z", resource: JSON.stringify(resource) },
      ]) {
        expect(servedText(row)).toBe(JSON.stringify(servedResource(row)));
        expect(JSON.parse(servedText(row))).toEqual(servedResource(row));
      }
    }
  });

  it("adds the FHIR view's meta: versionId, lastUpdated, the first source and a tag per contributing source", () => {
    const served = JSON.parse(servedText({ ...record, resource: JSON.stringify({ resourceType: "Observation", id: "rec-1" }) }));
    expect(served.meta).toEqual({
      versionId: "3",
      lastUpdated: "2024-05-06T07:08:09.123Z",
      source: "urn:chartkey:source:src_a",
      tag: [
        { system: "https://chartkey.dev/fhir/source", code: "src_a", display: 'Clinic "A"' },
        { system: "https://chartkey.dev/fhir/source", code: "src_b" },
        { system: "https://chartkey.dev/fhir/source", code: "src_c" },
      ],
    });
  });
});
