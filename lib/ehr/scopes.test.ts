import { describe, expect, it } from "vitest";
import { grantableScopes, hasCategoryToken, hasResourceScope, scopeAllows, scopeAllowsResource } from "./scopes";

const LAB = "http://terminology.hl7.org/CodeSystem/observation-category|laboratory";
const VITAL = "http://terminology.hl7.org/CodeSystem/observation-category|vital-signs";
const observation = (code: string, system = "http://terminology.hl7.org/CodeSystem/observation-category") => ({
  resourceType: "Observation",
  category: [{ coding: [{ system, code }] }],
});

describe("SMART scopes", () => {
  it("grants launch/patient, offline_access and patient read scopes in v1 and v2 syntax, and nothing else", () => {
    expect(grantableScopes("openid fhirUser launch/patient  patient/*.read user/*.read patient/Observation.rs patient/Condition.cruds patient/Immunization.r launch/patient")).toEqual([
      "launch/patient",
      "patient/*.read",
      "patient/Observation.rs",
      "patient/Immunization.r",
    ]);
    // v2 scopes narrowed by category are granted; other queries, and queries on v1 or wildcard scopes, are not.
    expect(grantableScopes(`patient/Observation.rs?category=${LAB} offline_access patient/Observation.rs?code=1234-5 patient/*.rs?category=x patient/Observation.read?category=x`)).toEqual([
      `patient/Observation.rs?category=${LAB}`,
      "offline_access",
    ]);
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

  it("a scope narrowed by category lets its holder read and find only resources of those categories", () => {
    const scope = `launch/patient patient/Observation.rs?category=${LAB} patient/Condition.rs`;
    expect(scopeAllows(scope, "Observation", "search")).toBe(true);
    expect(scopeAllowsResource(scope, observation("laboratory"), "search")).toBe(true);
    expect(scopeAllowsResource(scope, observation("laboratory"), "read")).toBe(true);
    expect(scopeAllowsResource(scope, observation("vital-signs"), "search")).toBe(false);
    expect(scopeAllowsResource(scope, observation("laboratory", "http://example.org/other"), "read")).toBe(false);
    expect(scopeAllowsResource(scope, { resourceType: "Observation" }, "read")).toBe(false);
    expect(scopeAllowsResource(scope, { resourceType: "Condition" }, "read")).toBe(true);
    expect(scopeAllowsResource(`patient/Observation.rs?category=${LAB},${VITAL}`, observation("vital-signs"), "search")).toBe(true);
    expect(scopeAllowsResource(`patient/Observation.rs?category=${LAB} patient/Observation.read`, observation("survey"), "search")).toBe(true);
  });

  it("matches category tokens as FHIR token search does: system|code, code, |code", () => {
    expect(hasCategoryToken(observation("laboratory"), "laboratory")).toBe(true);
    expect(hasCategoryToken(observation("laboratory"), LAB)).toBe(true);
    expect(hasCategoryToken(observation("laboratory"), "|laboratory")).toBe(false);
    expect(hasCategoryToken({ category: [{ coding: [{ code: "laboratory" }] }] }, "|laboratory")).toBe(true);
    expect(hasCategoryToken({}, "laboratory")).toBe(false);
  });
});
