import { describe, expect, it } from "vitest";
import { normalizeBundle } from "./resources";
import { expectValidFhir, FHIR_VALIDATION_TIMEOUT_MS, normalizeAll, normalizeOne, skipReason, TEST_SCOPE, TEST_SOURCE } from "@/test/normalizer";

const noteText = Buffer.from("2021-03-07\n\n# Chief Complaint\nNo complaints.\n\n# History of Present Illness\n...").toString("base64");
const loinc = (code: string, display: string) => ({ coding: [{ system: "http://loinc.org", code, display }], text: display });
const v2Lab = { coding: [{ system: "http://terminology.hl7.org/CodeSystem/v2-0074", code: "LAB", display: "Laboratory" }] };

const practitioner = { resourceType: "Practitioner", id: "dr1", name: [{ family: "Torp", given: ["Melvin"], prefix: ["Dr."] }] };

// A US Core DiagnosticReport for a clinical note, as Synthea writes one per encounter.
const progressNote = {
  resourceType: "DiagnosticReport",
  id: "note1",
  meta: { profile: ["http://hl7.org/fhir/us/core/StructureDefinition/us-core-diagnosticreport-note"] },
  status: "final",
  category: [loinc("LP29708-2", "Cardiology")],
  code: loinc("11506-3", "Progress note"),
  subject: { reference: "Patient/p1" },
  effectiveDateTime: "2021-03-07T00:11:45-05:00",
  issued: "2021-03-07T00:11:45.131-05:00",
  performer: [{ reference: "Practitioner/dr1" }],
  resultsInterpreter: [{ reference: "Practitioner/dr1" }, { display: "Dr. Second Reader" }],
  presentedForm: [
    { contentType: "text/plain", data: noteText },
    { contentType: "application/pdf", url: "https://ehr.example.org/Binary/note1.pdf", size: 18230, title: "Progress note (PDF)" },
  ],
};

const hemoglobin = {
  resourceType: "Observation",
  id: "hgb1",
  status: "final",
  category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "laboratory" }] }],
  code: loinc("718-7", "Hemoglobin [Mass/volume] in Blood"),
  subject: { reference: "Patient/p1" },
  effectiveDateTime: "2005-07-05",
  valueQuantity: { value: 17.6, unit: "g/dL", system: "http://unitsofmeasure.org", code: "g/dL" },
};
const platelets = {
  ...hemoglobin,
  id: "plt1",
  code: loinc("777-3", "Platelets [#/volume] in Blood by Automated count"),
  valueQuantity: { value: 242, unit: "10*3/uL", system: "http://unitsofmeasure.org", code: "10*3/uL" },
};

// The US Core lab report example's shape: a CBC panel grouping its results, no rendition of its own.
const cbcReport = {
  resourceType: "DiagnosticReport",
  id: "cbc1",
  meta: { profile: ["http://hl7.org/fhir/us/core/StructureDefinition/us-core-diagnosticreport-lab"] },
  status: "final",
  category: [v2Lab],
  code: loinc("58410-2", "CBC panel - Blood by Automated count"),
  subject: { reference: "Patient/p1" },
  effectiveDateTime: "2005-07-05",
  issued: "2005-07-06T11:45:33+11:00",
  performer: [{ display: "Acme Laboratory, Inc" }],
  result: [{ reference: "Observation/hgb1" }, { reference: "Observation/plt1" }],
};
const cbcWithPdf = {
  ...cbcReport,
  presentedForm: [{ contentType: "application/pdf", url: "https://lab.example.org/reports/cbc1.pdf", title: "CBC report" }],
};

describe("normalizeDiagnosticReport", () => {
  it("writes realistic FHIR R4", () => {
    for (const resource of [progressNote, hemoglobin, platelets, cbcReport, cbcWithPdf, practitioner]) expectValidFhir(resource);
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("turns a report with a presented form into a documents record, keeping attachment metadata but never the data", () => {
    const record = normalizeOne("documents", progressNote, [practitioner]);
    expect(record).toMatchObject({
      category: "documents",
      kind: "diagnosticReport",
      status: "final",
      docStatus: null,
      code: { text: "Progress note", codings: [{ system: "http://loinc.org", code: "11506-3", display: "Progress note" }] },
      categories: [{ text: "Cardiology" }],
      date: "2021-03-07T00:11:45-05:00",
      description: null,
      authors: ["Dr. Melvin Torp", "Dr. Second Reader"],
      attachments: [
        { contentType: "text/plain", title: null, url: null, size: Buffer.from(noteText, "base64").length, hasData: true },
        { contentType: "application/pdf", title: "Progress note (PDF)", url: "https://ehr.example.org/Binary/note1.pdf", size: 18230, hasData: false },
      ],
    });
    expect(JSON.stringify(record)).not.toContain(noteText);
  });

  it("dates a report by its effective period's start, else by when it was issued; its conclusion describes it", () => {
    const undated = { ...progressNote, effectiveDateTime: undefined };
    expect(normalizeOne("documents", { ...undated, effectivePeriod: { start: "2021-03-06T23:00:00-05:00" } }).date).toBe("2021-03-06T23:00:00-05:00");
    expect(normalizeOne("documents", undated).date).toBe("2021-03-07T00:11:45.131-05:00");
    expect(normalizeOne("documents", { ...progressNote, conclusion: "Stable." }).description).toBe("Stable.");
  });

  it("marks DocumentReference documents as such, so the two kinds can be told apart", () => {
    const reference = {
      resourceType: "DocumentReference",
      id: "d1",
      status: "current",
      type: progressNote.code,
      content: [{ attachment: { contentType: "text/plain", data: noteText } }],
    };
    expectValidFhir(reference);
    expect(normalizeOne("documents", reference).kind).toBe("documentReference");
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("names a lab report on each of its results, and reports the report itself as carried by them", () => {
    const result = normalizeAll([cbcReport, hemoglobin, platelets]);
    expect(result.skipped).toEqual([
      { resourceType: "DiagnosticReport", resourceId: "cbc1", reason: "DiagnosticReport has no presented form; its results name it as their report" },
    ]);
    const labs = result.facts.filter((fact) => fact.category === "labs");
    expect(labs).toHaveLength(2);
    for (const fact of labs) {
      expect(fact.record).toMatchObject({
        report: { resourceId: "cbc1", code: { text: "CBC panel - Blood by Automated count", codings: [{ code: "58410-2" }] }, recordId: null },
      });
    }
  });

  it("gives a lab report with a presented form both: a documents record, which its results link to", () => {
    const result = normalizeAll([cbcWithPdf, hemoglobin, platelets]);
    expect(result.skipped).toEqual([]);
    const [document, ...others] = result.facts.filter((fact) => fact.category === "documents");
    expect(others).toEqual([]);
    expect(document?.record).toMatchObject({ kind: "diagnosticReport", attachments: [{ title: "CBC report", hasData: false }] });
    const labs = result.facts.filter((fact) => fact.category === "labs");
    expect(labs.map((fact) => "report" in fact.record && fact.record.report?.recordId)).toEqual([document?.record.recordId, document?.record.recordId]);
  });

  it("keeps a result's identity whether or not its report came along, and names no report it is not in", () => {
    const alone = normalizeOne("labs", hemoglobin);
    const grouped = normalizeOne("labs", hemoglobin, [cbcReport]);
    expect(alone.report).toBeNull();
    expect(grouped.report?.resourceId).toBe("cbc1");
    expect(grouped.recordId).toBe(alone.recordId);
    expect(normalizeOne("labs", hemoglobin, [{ ...cbcReport, status: "entered-in-error" }]).report).toBeNull();
  });

  it("follows urn:uuid result references in a transaction bundle", () => {
    const urn = (id: string) => `urn:uuid:7d3a5c1e-1f00-4c5e-9a0b-00000000000${id}`;
    const bundle = {
      resourceType: "Bundle",
      type: "transaction",
      entry: [
        { fullUrl: urn("1"), resource: { ...cbcWithPdf, result: [{ reference: urn("2") }] }, request: { method: "POST", url: "DiagnosticReport" } },
        { fullUrl: urn("2"), resource: hemoglobin, request: { method: "POST", url: "Observation" } },
      ],
    };
    expectValidFhir(bundle);
    const { facts } = normalizeBundle(bundle, TEST_SOURCE, TEST_SCOPE);
    const document = facts.find((fact) => fact.category === "documents");
    const lab = facts.find((fact) => fact.category === "labs");
    expect(lab?.record).toMatchObject({ report: { resourceId: "cbc1", recordId: document?.record.recordId } });
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("skips a report with neither a presented form nor results, and one with nothing to name it", () => {
    expect(skipReason({ ...cbcReport, result: undefined })).toBe("DiagnosticReport has no presented form, no results and no narrative");
    expect(skipReason({ ...progressNote, code: { coding: [{ system: "http://loinc.org" }] }, category: [] })).toBe(
      "DiagnosticReport has no code or category",
    );
  });

  describe("a note sent both as a DiagnosticReport and as a DocumentReference, as US Core asks and Synthea does", () => {
    const sameNote = {
      resourceType: "DocumentReference",
      id: "docref1",
      status: "current",
      type: progressNote.code,
      category: [{ coding: [{ system: "http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category", code: "clinical-note" }] }],
      subject: { reference: "Patient/p1" },
      date: "2021-03-07T00:11:45.131-05:00",
      content: [{ attachment: { contentType: "text/plain", data: noteText } }],
    };
    const servedInstead = "DiagnosticReport presents the same note as a DocumentReference, which is served instead";

    it("writes realistic FHIR R4", () => {
      expectValidFhir(sameNote);
    }, FHIR_VALIDATION_TIMEOUT_MS);

    it("becomes one documents record, the DocumentReference's, when both carry the same inline data", () => {
      const result = normalizeAll([progressNote, sameNote, practitioner]);
      expect(result.skipped).toEqual([{ resourceType: "DiagnosticReport", resourceId: "note1", reason: servedInstead }]);
      expect(result.facts.map((fact) => [fact.category, fact.record.sources[0]?.resourceId])).toEqual([["documents", "docref1"]]);
    });

    it("or the same attachment URL, and the report's results link to that document", () => {
      const pdf = { contentType: "application/pdf", url: "https://lab.example.org/reports/cbc1.pdf" };
      const document = { ...sameNote, id: "docref2", content: [{ attachment: pdf }] };
      const result = normalizeAll([cbcWithPdf, document, hemoglobin]);
      expect(result.skipped).toEqual([{ resourceType: "DiagnosticReport", resourceId: "cbc1", reason: servedInstead }]);
      const documentRecord = result.facts.find((fact) => fact.category === "documents")?.record;
      expect(documentRecord?.sources[0]?.resourceId).toBe("docref2");
      const lab = result.facts.find((fact) => fact.category === "labs")?.record;
      expect(lab).toMatchObject({ report: { resourceId: "cbc1", recordId: documentRecord?.recordId } });
    });

    it("stays two records when the contents differ", () => {
      const otherNote = { ...sameNote, content: [{ attachment: { contentType: "text/plain", data: Buffer.from("Another note").toString("base64") } }] };
      const result = normalizeAll([progressNote, otherNote]);
      expect(result.skipped).toEqual([]);
      expect(result.facts.map((fact) => fact.record.sources[0]?.resourceType).sort()).toEqual(["DiagnosticReport", "DocumentReference"]);
    });
  });
});
