import type { Coding, Resource } from "fhir/r4";

/** HL7 v3 ActReason HTEST ("test health data"): the standard FHIR security tag for data that is not real. */
export const FHIR_TEST_DATA_TAG: Coding = {
  system: "http://terminology.hl7.org/CodeSystem/v3-ActReason",
  code: "HTEST",
  display: "test health data",
};

/** A copy of the resource whose meta.tag marks it as test data; a Bundle's entries are tagged as well. */
export function withTestDataTag<T extends Resource>(resource: T): T {
  const tags = resource.meta?.tag ?? [];
  const tagged = tags.some((tag) => tag.system === FHIR_TEST_DATA_TAG.system && tag.code === FHIR_TEST_DATA_TAG.code)
    ? resource
    : { ...resource, meta: { ...resource.meta, tag: [...tags, FHIR_TEST_DATA_TAG] } };
  if (tagged.resourceType !== "Bundle" || !("entry" in tagged) || !Array.isArray(tagged.entry)) return tagged;
  return {
    ...tagged,
    entry: tagged.entry.map((entry: { resource?: Resource }) =>
      entry.resource ? { ...entry, resource: withTestDataTag(entry.resource) } : entry,
    ),
  };
}
