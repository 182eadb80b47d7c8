import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectValidFhir, FHIR_VALIDATION_TIMEOUT_MS, TEST_SCOPE, TEST_SOURCE } from "@/test/normalizer";
import type { Category, NormalizedRecord } from "../schemas";
import { normalizeBundle } from "./resources";
import type { NormalizationResult } from "./types";

// Each defect class of issue 23, tested on the public examples in fixtures/fidelity (see SOURCES.md there).
const FIXTURES = path.resolve(__dirname, "../../../fixtures/fidelity");

function normalizeFixture(name: string): NormalizationResult {
  return normalizeBundle(JSON.parse(fs.readFileSync(path.join(FIXTURES, name), "utf8")), TEST_SOURCE, TEST_SCOPE);
}

function recordOf<C extends Category>(result: NormalizationResult, category: C, resourceId: string): NormalizedRecord<C> {
  const fact = result.facts.find((item) => item.category === category && item.record.sources[0]?.resourceId === resourceId);
  if (!fact) throw new Error(`no ${category} record from ${resourceId}; skipped: ${JSON.stringify(result.skipped)}`);
  return fact.record as NormalizedRecord<C>;
}

const usCore = normalizeFixture("us-core-examples.json");

describe("class 2: patient sex in US Core 6+", () => {
  it("keeps the individual-sex extension as sex, apart from gender and birth sex (US Core patient-example)", () => {
    const patient = recordOf(usCore, "demographics", "example");
    expect(patient.gender).toBeNull();
    expect(patient.sex).toEqual({
      text: "Female (finding)",
      codings: [{ system: "http://snomed.info/sct", code: "248152002", display: "Female (finding)" }],
    });
    expect(patient.birthSex).toBeNull();
    expect(patient.genderIdentity).toBeNull();
  });
});

const carin = normalizeFixture("carin-bb-examples.json");

describe("class 1: silent drops of Encounter and Coverage", () => {
  it("makes a US Core Coverage a claims record of kind coverage with payer, plan, group, member, relationship, period", () => {
    const coverage = recordOf(usCore, "claims", "coverage-example");
    expect(coverage).toMatchObject({
      kind: "coverage",
      status: "active",
      insurer: "Acme Health Plan",
      coverage: {
        payer: "Acme Health Plan",
        plan: { value: "gold", name: "Acme Gold Plan" },
        group: { value: "xyz", name: "XYZ employee Group Plan" },
        memberId: "88800933501",
        subscriberId: "888009335",
        relationship: { text: "Self" },
        period: { start: "2020-01-01", end: null },
      },
    });
    expect(coverage.code.text).toBe("PPO");
  });

  it("makes a CARIN Blue Button Coverage a coverage record, naming the payer organization", () => {
    const coverage = recordOf(carin, "claims", "CoverageEx1");
    expect(coverage.kind).toBe("coverage");
    expect(coverage.coverage?.payer).toBe("UPMC Health Plan");
    expect(coverage.coverage?.group?.value).toBeTruthy();
  });

  it("reports an Encounter as a skip, and gives the records that reference it its date, type and location", () => {
    expect(usCore.skipped).toContainEqual({
      resourceType: "Encounter",
      resourceId: "example-1",
      reason: "Encounter is not a record: the records that reference it carry its date, type and location",
    });
    const immunization = recordOf(usCore, "immunizations", "imm-1");
    expect(immunization.encounter).toEqual({
      resourceId: "example-1",
      class: "AMB",
      type: { text: "Office Visit", codings: [{ system: "http://www.ama-assn.org/go/cpt", code: "99211", display: null }] },
      period: { start: "2015-11-01T17:00:14-05:00", end: "2015-11-01T18:00:14-05:00" },
      location: "Holy Family Hospital",
    });
  });

  it("lists every other resource as context, with a reason", () => {
    // Resources converted from a C-CDA document a DocumentReference carries are named ccda-… (see class 11).
    const fromFhir = usCore.context.filter((item) => !item.resourceId?.startsWith("ccda-"));
    expect(fromFhir.map((item) => `${item.resourceType}/${item.resourceId}`).sort()).toEqual([
      "Location/hospital",
      "Medication/uscore-med2",
      "Organization/acme-payer",
      "Practitioner/practitioner-1",
    ]);
    expect(usCore.context.every((item) => item.reason.length > 0)).toBe(true);
  });
});

describe("class 3: DocumentReference.context", () => {
  it("keeps when the documented care happened (US Core documentreference-episode-summary)", () => {
    const summary = recordOf(usCore, "documents", "episode-summary");
    expect(summary.period).toEqual({ start: "2025-09-27T13:00:00+11:00", end: "2025-09-27T19:01:00+11:00" });
    expect(summary.date).toBe("2026-08-15T22:01:00.612Z");
  });

  it("keeps the encounter and its facility (US Core documentreference-discharge-summary)", () => {
    const discharge = recordOf(usCore, "documents", "discharge-summary");
    expect(discharge.encounter).toMatchObject({ resourceId: "example-1", location: "Holy Family Hospital" });
    expect(discharge.facility).toBe("Holy Family Hospital");
  });
});

describe("class 4: prescriptions", () => {
  it("keeps dispenseRequest and structured timing (US Core medicationrequest-coded-oral-axid)", () => {
    const request = recordOf(usCore, "medications", "medicationrequest-coded-oral-axid");
    const ucum = "http://unitsofmeasure.org";
    expect(request.dispenseRequest).toEqual({
      quantity: { value: 480, comparator: null, unit: "mL", system: ucum, code: "mL" },
      refillsAllowed: 1,
      validityPeriod: null,
      expectedSupplyDuration: { value: 30, comparator: null, unit: "days", system: ucum, code: "d" },
    });
    expect(request.dosages[0]).toMatchObject({
      text: "10 mL bid",
      frequency: { timesPerPeriod: 2, period: 1, periodUnit: "d" },
      bounds: { start: "2008-04-05", end: null },
      when: [],
      timingCode: null,
    });
  });
});

describe("class 5: claims", () => {
  const eob = recordOf(carin, "claims", "InpatientEOBExample1");

  it("keeps supportingInfo coded, with its timing (CARIN BB ExplanationOfBenefit_InpatientEOBExample1)", () => {
    const byCategory = Object.fromEntries(eob.supportingInfo.map((info) => [info.category?.codings[0]?.code, info]));
    expect(byCategory.admissionperiod?.timing).toEqual({ type: "period", start: "2017-05-23", end: null });
    expect(byCategory.clmrecvddate?.timing).toEqual({ type: "dateTime", value: "2017-06-01" });
    expect(byCategory.benefitpaymentstatus?.code?.codings[0]?.code).toBe("innetwork");
    expect(eob.supportingInfo).toHaveLength(3);
  });

  it("keeps DRG, type of bill, admission type, discharge status and days supply coded (CARIN BB C4BBSupportingInfoType)", () => {
    // No published CARIN BB JSON example carries these categories: the inpatient example gets them here, with the
    // IG's code systems (C4BBSupportingInfoType; MS-DRG; NUBC type of bill, priority of admission, discharge status).
    const bundle = JSON.parse(fs.readFileSync(path.join(FIXTURES, "carin-bb-examples.json"), "utf8")) as { entry: { resource: { resourceType: string; supportingInfo?: object[] } }[] };
    const carinType = (code: string) => ({ coding: [{ system: "http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBSupportingInfoType", code }] });
    const coded = (system: string, code: string) => ({ coding: [{ system, code }] });
    const inpatient = bundle.entry.find((entry) => entry.resource.resourceType === "ExplanationOfBenefit")!.resource;
    inpatient.supportingInfo = [
      { sequence: 4, category: carinType("drg"), code: coded("https://www.cms.gov/Medicare/Medicare-Fee-for-Service-Payment/AcuteInpatientPPS/MS-DRG-Classifications-and-Software", "871") },
      { sequence: 5, category: carinType("typeofbill"), code: coded("https://www.nubc.org/CodeSystem/TypeOfBill", "0111") },
      { sequence: 6, category: carinType("admtype"), code: coded("https://www.nubc.org/CodeSystem/PriorityTypeOfAdmitOrVisit", "1") },
      { sequence: 7, category: carinType("discharge-status"), code: coded("https://www.nubc.org/CodeSystem/PatDischargeStatus", "01") },
      { sequence: 8, category: carinType("dayssupply"), valueQuantity: { value: 30 } },
    ];
    const claim = recordOf(normalizeBundle(bundle, TEST_SOURCE, TEST_SCOPE), "claims", "InpatientEOBExample1");
    const byCategory = Object.fromEntries(claim.supportingInfo.map((info) => [info.category?.codings[0]?.code, info]));
    expect(byCategory.drg?.code?.codings[0]).toMatchObject({ system: expect.stringContaining("MS-DRG"), code: "871" });
    expect(byCategory.typeofbill?.code?.codings[0]).toMatchObject({ system: "https://www.nubc.org/CodeSystem/TypeOfBill", code: "0111" });
    expect(byCategory.admtype?.code?.codings[0]?.code).toBe("1");
    expect(byCategory["discharge-status"]?.code?.codings[0]?.code).toBe("01");
    expect(byCategory.dayssupply?.value).toMatchObject({ type: "quantity", value: 30 });
  });

  it("keeps the care team and the provider, by name", () => {
    expect(eob.provider).toBe("Green Medical Group");
    expect(eob.careTeam.map((member) => [member.provider, member.role?.codings[0]?.code])).toEqual([
      ["Dr. Jack Brown", "attending"],
      ["Dr. Jack Brown", "referring"],
    ]);
  });

  it("keeps each item's revenue code", () => {
    expect(eob.items[0]?.revenue?.codings[0]?.code).toBe("0301");
    expect(eob.items[0]?.quantity).toBeNull();
  });
});

describe("class 9: immunization series", () => {
  it("reads a fixture we wrote out in R4 JSON, which is valid FHIR R4", () => {
    const bundle = JSON.parse(fs.readFileSync(path.join(FIXTURES, "fhir-r4-examples.json"), "utf8")) as { entry: { resource: object }[] };
    for (const { resource } of bundle.entry) expectValidFhir(resource);
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("keeps protocolApplied: series, dose number, series doses, target disease (FHIR R4 immunization-example-protocol)", () => {
    const immunization = recordOf(normalizeFixture("fhir-r4-examples.json"), "immunizations", "protocol");
    expect(immunization.protocolApplied).toEqual([
      { series: "2-dose", doseNumber: "1", seriesDoses: null, targetDiseases: [{ text: null, codings: [{ system: "http://snomed.info/sct", code: "40468003", display: null }] }] },
      { series: "3-dose", doseNumber: "2", seriesDoses: "3", targetDiseases: [{ text: null, codings: [{ system: "http://snomed.info/sct", code: "66071002", display: null }] }] },
    ]);
  });
});

describe("class 8: long resource ids", () => {
  it("resolves a Medication whose id is 100 characters, as Epic's are, and warns (US Core medicationrequest-referenced-oral-axid)", () => {
    const bundle = JSON.parse(fs.readFileSync(path.join(FIXTURES, "us-core-examples.json"), "utf8")) as {
      entry: { resource: { resourceType: string; id: string; medicationReference?: { reference: string; display?: string } } }[];
    };
    const longId = `e${"Zx9.Kq-3".repeat(12)}abc`;
    expect(longId).toHaveLength(100);
    const request = bundle.entry.find(({ resource }) => resource.id === "medicationrequest-referenced-oral-axid")!.resource;
    // Without its display, the request can only be named through the Medication it references.
    request.medicationReference = { reference: `Medication/${longId}` };
    bundle.entry.find(({ resource }) => resource.id === "uscore-med2")!.resource.id = longId;
    const record = recordOf(normalizeBundle(bundle, TEST_SOURCE, TEST_SCOPE), "medications", "medicationrequest-referenced-oral-axid");
    expect(record.code.codings).toEqual([
      { system: "http://www.nlm.nih.gov/research/umls/rxnorm", code: "582620", display: "Nizatidine 15 MG/ML Oral Solution [Axid]" },
    ]);
    expect(record.warnings).toEqual(["referenced Medication id is 100 characters, longer than FHIR's 64; resolved anyway"]);
  });
});

describe("class 10: skip reasons that mislead", () => {
  it("says a report's results are not in the import when they are not (US Core diagnosticreport-cbc without its results)", () => {
    const cbc = usCore.skipped.find((skipped) => skipped.resourceId === "cbc");
    expect(cbc?.reason).toBe("DiagnosticReport has no presented form, and the results it lists are not in this import");
  });
});

describe("class 7: narrative-only reports and conclusions", () => {
  it("makes a report with only a narrative and a coded conclusion a document carrying both (written for this test)", () => {
    const bundle = JSON.parse(fs.readFileSync(path.join(FIXTURES, "fhir-r4-examples.json"), "utf8")) as { entry: { resource: object }[] };
    const report = {
      resourceType: "DiagnosticReport",
      id: "narrative-only",
      status: "final",
      code: { coding: [{ system: "http://loinc.org", code: "24627-2", display: "Chest CT" }], text: "CT of chest" },
      subject: { reference: "Patient/example" },
      effectiveDateTime: "2012-12-01T12:00:00+01:00",
      text: { status: "generated", div: '<div xmlns="http://www.w3.org/1999/xhtml"><p>CT chest: no evidence of &lt;5 mm nodules.</p></div>' },
      conclusionCode: [{ coding: [{ system: "http://snomed.info/sct", code: "188340000", display: "Malignant tumor of craniopharyngeal duct" }] }],
    };
    expectValidFhir(report);
    bundle.entry.push({ resource: report });
    const document = recordOf(normalizeBundle(bundle, TEST_SOURCE, TEST_SCOPE), "documents", "narrative-only");
    expect(document.narrative).toBe("CT chest: no evidence of <5 mm nodules.");
    expect(document.conclusionCodes[0]?.codings[0]?.code).toBe("188340000");
    expect(document.attachments).toEqual([]);
  }, FHIR_VALIDATION_TIMEOUT_MS);

  const notes = JSON.parse(fs.readFileSync(path.join(FIXTURES, "synthea-notes.json"), "utf8")) as { entry: { resource: { resourceType: string; id: string } }[] };
  const [reportEntry, documentEntry] = notes.entry;
  const noteText = (resource: object) =>
    Buffer.from(JSON.stringify(resource).match(/"data":"([^"]+)"/)![1]!, "base64").toString("utf8");

  it("makes a history and physical note readable as text, whichever resource carries it (Synthea, fhir-data-pipes Lawrence741)", () => {
    // Synthea sends the note twice: as the DocumentReference, which is served, and as the DiagnosticReport.
    const both = normalizeFixture("synthea-notes.json");
    const served = recordOf(both, "documents", documentEntry!.resource.id);
    expect(served.attachments).toEqual([
      { contentType: "text/plain; charset=utf-8", title: null, url: null, size: expect.any(Number), hasData: true, text: noteText(documentEntry!.resource) },
    ]);
    expect(served.attachments[0]!.text).toContain("# Chief Complaint\nNo complaints.");
    const reportOnly = normalizeBundle({ resourceType: "Bundle", type: "collection", entry: [reportEntry] }, TEST_SOURCE, TEST_SCOPE);
    expect(recordOf(reportOnly, "documents", reportEntry!.resource.id).attachments[0]!.text).toBe(noteText(reportEntry!.resource));
  });
});

describe("class 11: C-CDA documents", () => {
  it("reads the C-CDA a US Core DocumentReference carries inline: the document stays, its sections become records naming it", () => {
    const fromDocument = usCore.facts.filter((fact) => fact.record.sources.some((source) => source.document !== undefined));
    expect(fromDocument.length).toBeGreaterThan(0);
    const documents = new Set(fromDocument.flatMap((fact) => fact.record.sources.flatMap((source) => source.document?.resourceId ?? [])));
    for (const id of documents) expect(recordOf(usCore, "documents", id).kind).toBe("documentReference");
  });
});

describe("class 6: vital signs tagged survey", () => {
  it("files a BMI tagged only `survey`, as Synthea's HIV module tags it, as a vital by its LOINC code (US Core bmi, re-tagged)", () => {
    const bundle = JSON.parse(fs.readFileSync(path.join(FIXTURES, "us-core-examples.json"), "utf8")) as {
      entry: { resource: { id: string; category?: unknown } }[];
    };
    const bmi = bundle.entry.find(({ resource }) => resource.id === "bmi")!.resource;
    bmi.category = [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "survey" }] }];
    const record = recordOf(normalizeBundle(bundle, TEST_SOURCE, TEST_SCOPE), "vitals", "bmi");
    expect(record.code.codings[0]?.code).toBe("39156-5");
  });
});
