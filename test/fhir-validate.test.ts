import type { Bundle, CapabilityStatement, Patient } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { validateFhirResource } from "./fhir-validate";

const patient: Patient = {
  resourceType: "Patient",
  id: "example",
  name: [{ family: "Rivera", given: ["Ana"] }],
  gender: "female",
  birthDate: "1984-03-07",
};

function bundleOf(...resources: unknown[]): Bundle {
  return { resourceType: "Bundle", type: "collection", entry: resources.map((resource) => ({ resource })) } as Bundle;
}

describe("validateFhirResource", () => {
  // The first validation compiles the R4 schema's validator: seconds alone, a minute or more on a loaded 2-core machine.
  it("accepts a valid Patient", { timeout: 180_000 }, () => {
    expect(validateFhirResource(patient)).toEqual({ valid: true, errors: [] });
  });

  it("rejects an invalid Patient with an error naming the field, the rule and the allowed values", () => {
    const result = validateFhirResource({ ...patient, gender: "robot" });
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^\/gender must be equal to one of the allowed values .*"female"/);
  });

  it("rejects a field the resource type does not define, and a malformed date", () => {
    expect(validateFhirResource({ ...patient, favouriteColour: "blue" }).errors).toEqual([
      '/ must NOT have additional properties {"additionalProperty":"favouriteColour"}',
    ]);
    expect(validateFhirResource({ ...patient, birthDate: "7 March 1984" }).errors[0]).toMatch(/^\/birthDate must match pattern/);
  });

  it("validates each entry of a Bundle as its own type and names the entry at fault", () => {
    expect(validateFhirResource(bundleOf(patient, { resourceType: "Organization", name: "Clinic" }))).toEqual({
      valid: true,
      errors: [],
    });
    const result = validateFhirResource(bundleOf(patient, { ...patient, id: "second", gender: "robot" }));
    expect(result.valid).toBe(false);
    // One precise complaint, not one per resource type of the schema's `oneOf`.
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^\/entry\/1\/resource\/gender must be equal to one of the allowed values/);
  });

  it("validates entries of a Bundle nested in a Bundle", () => {
    const result = validateFhirResource(bundleOf(bundleOf({ ...patient, birthDate: "soon" })));
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^\/entry\/0\/resource\/entry\/0\/resource\/birthDate must match pattern/);
  });

  it("rejects an unknown or missing resourceType and anything that is not an object", () => {
    expect(validateFhirResource({ resourceType: "Spaceship", id: "x" })).toEqual({
      valid: false,
      errors: ['unknown resourceType "Spaceship"'],
    });
    expect(validateFhirResource({ id: "x" }).errors).toEqual(["unknown resourceType undefined"]);
    expect(validateFhirResource(bundleOf({ resourceType: "Spaceship" })).errors).toEqual([
      '/entry/0/resource unknown resourceType "Spaceship"',
    ]);
    for (const value of [null, "Patient", [patient]]) {
      expect(validateFhirResource(value)).toEqual({ valid: false, errors: ["resource is not a JSON object"] });
    }
  });

  it("accepts FHIR 4.0.1, the R4 version we serve, which the packaged 4.0.0 schema does not list", () => {
    const statement: CapabilityStatement = {
      resourceType: "CapabilityStatement",
      status: "active",
      date: "2026-01-01",
      kind: "instance",
      fhirVersion: "4.0.1",
      format: ["json"],
    };
    expect(validateFhirResource(statement).errors).toEqual([]);
    expect(validateFhirResource({ ...statement, fhirVersion: "4.0.2" }).valid).toBe(false);
  });
});
