import { describe, expect, it } from "vitest";
import { expectValidFhir, FHIR_VALIDATION_TIMEOUT_MS, normalizeOne } from "@/test/normalizer";

const patient = {
  resourceType: "Patient",
  id: "p1",
  active: true,
  extension: [
    {
      url: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-race",
      extension: [
        { url: "ombCategory", valueCoding: { system: "urn:oid:2.16.840.1.113883.6.238", code: "2106-3", display: "White" } },
        { url: "detailed", valueCoding: { system: "urn:oid:2.16.840.1.113883.6.238", code: "2108-9", display: "European" } },
        { url: "text", valueString: "White" },
      ],
    },
  ],
  identifier: [
    { system: "http://hospital.example.org", value: "MRN-1", type: { text: "Medical Record Number" } },
    { system: "http://hl7.org/fhir/sid/us-ssn", value: "999-11-2222" },
    { type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/v2-0203", code: "SS" }] }, value: "999-33-4444" },
    { system: "urn:oid:2.16.840.1.113883.4.1", type: { text: "Social Security Number" }, value: "999-55-6666" },
  ],
  name: [
    { use: "old", family: "Maiden", given: ["Ann"] },
    { use: "official", family: "Smith", given: ["Ann", "B"], prefix: ["Ms."] },
  ],
  telecom: [{ system: "phone", value: "555-0100", use: "home" }, { system: "email" }],
  gender: "female",
  birthDate: "1970-03",
  deceasedDateTime: "2020-01-02T03:04:05-07:00",
  address: [{ use: "home", line: ["1 Main St"], city: "Boston", state: "MA", postalCode: "02101", country: "US" }],
  communication: [
    { language: { coding: [{ system: "urn:ietf:bcp:47", code: "en" }] } },
    { language: { coding: [{ system: "urn:ietf:bcp:47", code: "es", display: "Spanish" }] }, preferred: true },
  ],
};

describe("normalizePatient", () => {
  it("maps demographics, keeping a partial birth date and the original offset", () => {
    const record = normalizeOne("demographics", patient);
    expect(record).toMatchObject({
      status: "active",
      code: null,
      birthDate: "1970-03",
      gender: "female",
      deceased: true,
      deceasedDateTime: "2020-01-02T03:04:05-07:00",
      name: { text: "Ms. Ann B Smith", family: "Smith", given: ["Ann", "B"] },
      addresses: [{ use: "home", city: "Boston", state: "MA", postalCode: "02101", country: "US" }],
      telecom: [{ system: "phone", value: "555-0100", use: "home" }],
      language: { text: "Spanish" },
      race: { text: "White", ombCategories: [{ code: "2106-3" }], detailed: [{ code: "2108-9" }] },
      ethnicity: null,
    });
    expect(JSON.stringify(record)).not.toContain("1 Main St");
  });

  it("never serves a social security number, whether marked by system, type code or type text", () => {
    const record = normalizeOne("demographics", patient);
    expect(record.identifiers).toEqual([{ system: "http://hospital.example.org", value: "MRN-1", type: "Medical Record Number" }]);
    expect(JSON.stringify(record)).not.toMatch(/999-\d\d-\d{4}/);
  });

  it("keys demographics by the patient, not by the Patient resource id", () => {
    const first = normalizeOne("demographics", patient);
    const second = normalizeOne("demographics", { ...patient, id: "another-id", gender: "other" });
    expect(second.recordId).toBe(first.recordId);
  });

  it("carries the US Core birth sex and the postal parts of each address, never street lines", () => {
    const usCorePatient = {
      resourceType: "Patient",
      id: "p2",
      meta: { profile: ["http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient"] },
      extension: [
        { url: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex", valueCode: "F" },
      ],
      identifier: [{ system: "http://hospital.example.org", value: "MRN-2" }],
      name: [{ family: "Shaw", given: ["Amy", "V."] }],
      gender: "female",
      birthDate: "1987-02-20",
      address: [
        { use: "home", line: ["49 Meadow St", "Apt 2"], city: "Mounds", state: "OK", postalCode: "74047", country: "US" },
        { use: "old", line: ["183 Mountain View St"], city: "Mounds", state: "OK", postalCode: "74048", period: { end: "2016-01-01" } },
        { line: ["Street only"] },
      ],
    };
    expectValidFhir(usCorePatient);
    const record = normalizeOne("demographics", usCorePatient);
    expect(record.birthSex).toBe("F");
    expect(record.addresses).toEqual([
      { use: "home", city: "Mounds", state: "OK", postalCode: "74047", country: "US" },
      { use: "old", city: "Mounds", state: "OK", postalCode: "74048", country: null },
    ]);
    expect(JSON.stringify(record)).not.toMatch(/Meadow|Mountain View|Apt 2|Street only/);
  }, FHIR_VALIDATION_TIMEOUT_MS);

  it("has no birth sex without the extension, or with an extension that carries no code", () => {
    expect(normalizeOne("demographics", patient).birthSex).toBeNull();
    const empty = { ...patient, extension: [{ url: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex" }] };
    expect(normalizeOne("demographics", empty).birthSex).toBeNull();
  });
});
