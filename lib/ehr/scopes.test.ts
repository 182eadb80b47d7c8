import { describe, expect, it } from "vitest";
import { grantableScopes, hasResourceScope, scopeAllows } from "./scopes";

describe("SMART scopes", () => {
  it("grants launch/patient, offline_access and patient read scopes in v1 and v2 syntax, and nothing else", () => {
    expect(grantableScopes("openid fhirUser launch/patient  patient/*.read user/*.read patient/Observation.rs patient/Condition.cruds patient/Immunization.r launch/patient")).toEqual([
      "launch/patient",
      "patient/*.read",
      "patient/Observation.rs",
      "patient/Immunization.r",
    ]);
    expect(grantableScopes("patient/Observation.rs?category=laboratory offline_access")).toEqual(["offline_access"]);
    expect(hasResourceScope(["launch/patient", "offline_access"])).toBe(false);
  });

  it("allows read and search per type, with * for every type", () => {
    expect(scopeAllows("patient/*.read", "Condition", "search")).toBe(true);
    expect(scopeAllows("launch/patient patient/Observation.read", "Observation", "read")).toBe(true);
    expect(scopeAllows("launch/patient patient/Observation.read", "Condition", "read")).toBe(false);
    expect(scopeAllows("patient/Patient.r", "Patient", "read")).toBe(true);
    expect(scopeAllows("patient/Patient.r", "Patient", "search")).toBe(false);
    expect(scopeAllows("patient/Patient.s", "Patient", "search")).toBe(true);
    expect(scopeAllows("launch/patient offline_access", "Patient", "read")).toBe(false);
  });
});
