import type { FhirResource } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { missingContextReferences } from "./context-references";

const BASE = "https://ehr.example.org/fhir";

describe("the context a batch references but does not hold", () => {
  it("finds relative and same-server absolute references in nested elements, once each, by type", () => {
    const resources = [
      {
        resourceType: "MedicationRequest",
        id: "rx-1",
        medicationReference: { reference: "Medication/med-1" },
        encounter: { reference: `${BASE}/Encounter/enc-1/_history/3` },
        requester: { reference: "Practitioner/pr-1" },
        performer: { reference: "Practitioner/pr-1" },
      },
      {
        resourceType: "Immunization",
        id: "imm-1",
        location: { reference: "Location/loc-1" },
        performer: [{ actor: { reference: "Organization/org-1" } }],
        encounter: { reference: "Encounter/enc-2" },
      },
      { resourceType: "Encounter", id: "enc-2" },
    ] as FhirResource[];
    expect(Object.fromEntries(missingContextReferences(resources, BASE))).toEqual({
      Medication: ["med-1"],
      Encounter: ["enc-1"],
      Practitioner: ["pr-1"],
      Location: ["loc-1"],
      Organization: ["org-1"],
    });
  });

  it("leaves contained, other-server, non-context and malformed references alone", () => {
    const resources = [
      {
        resourceType: "MedicationRequest",
        id: "rx-1",
        contained: [{ resourceType: "Medication", id: "m" }],
        medicationReference: { reference: "#m" },
        subject: { reference: "Patient/p-1" },
        reasonReference: [{ reference: "Condition/c-1" }],
        requester: { reference: "https://elsewhere.example.org/fhir/Practitioner/pr-9" },
        recorder: { reference: "urn:uuid:4f3c1a2b" },
        note: [{ text: "reference: Medication/med-7" }],
      },
    ] as FhirResource[];
    expect(missingContextReferences(resources, BASE).size).toBe(0);
  });
});
