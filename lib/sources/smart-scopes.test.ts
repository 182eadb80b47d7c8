import { describe, expect, it } from "vitest";
import { CATEGORIES } from "@/lib/records";
import { grantBroaderThan, grantedCategoryFilter, resourceScopesFor, scopeForCategories, scopeSyntaxFor } from "./smart-scopes";

const LAB = "http://terminology.hl7.org/CodeSystem/observation-category|laboratory";
const VITAL = "http://terminology.hl7.org/CodeSystem/observation-category|vital-signs";
const LAB_REPORT = "http://terminology.hl7.org/CodeSystem/v2-0074|LAB";

describe("the SMART scopes of the shared categories", () => {
  it("v2: medications and labs ask for the prescriptions, the lab Observations and lab reports, and the context they name", () => {
    expect(resourceScopesFor(["medications", "labs"], "v2")).toEqual([
      "patient/MedicationRequest.rs",
      "patient/MedicationStatement.rs",
      "patient/MedicationDispense.rs",
      `patient/Observation.rs?category=${LAB}`,
      `patient/DiagnosticReport.rs?category=${LAB_REPORT}`,
      "patient/Encounter.rs",
      "patient/Medication.rs",
      "patient/Practitioner.rs",
      "patient/Organization.rs",
      "patient/Location.rs",
      "patient/Specimen.rs",
    ]);
  });

  it("v2: vital signs are the vital-signs Observations only, with no Medication, Specimen or report", () => {
    expect(resourceScopesFor(["vitals"], "v2")).toEqual([
      `patient/Observation.rs?category=${VITAL}`,
      "patient/Encounter.rs",
      "patient/Practitioner.rs",
      "patient/Organization.rs",
      "patient/Location.rs",
    ]);
    expect(resourceScopesFor(["labs", "vitals"], "v2").filter((scope) => scope.startsWith("patient/Observation"))).toEqual([
      `patient/Observation.rs?category=${LAB}`,
      `patient/Observation.rs?category=${VITAL}`,
    ]);
  });

  it("v2: a category that is a whole type asks for the whole type (documents: every report and note, and their Binaries read by id)", () => {
    const scopes = resourceScopesFor(["labs", "documents"], "v2");
    expect(scopes).toContain("patient/DiagnosticReport.rs");
    expect(scopes.filter((scope) => scope.startsWith("patient/DiagnosticReport"))).toHaveLength(1);
    expect(scopes).toContain("patient/DocumentReference.rs");
    expect(scopes).toContain("patient/Binary.r");
  });

  it("demographics alone is the Patient read, no context", () => {
    expect(resourceScopesFor(["demographics"], "v2")).toEqual(["patient/Patient.r"]);
    expect(resourceScopesFor(["demographics"], "v1")).toEqual(["patient/Patient.read"]);
    expect(resourceScopesFor([], "v2")).toEqual([]);
  });

  it("v1 names the same types whole, with .read", () => {
    expect(resourceScopesFor(["vitals"], "v1")).toEqual(["patient/Observation.read", "patient/Encounter.read", "patient/Practitioner.read", "patient/Organization.read", "patient/Location.read"]);
    const v2Types = new Set(resourceScopesFor(CATEGORIES, "v2").map((scope) => scope.split(".")[0]));
    expect(new Set(resourceScopesFor(CATEGORIES, "v1").map((scope) => scope.split(".")[0]))).toEqual(v2Types);
    expect(scopeForCategories(["allergies"])).toBe(
      "launch/patient offline_access patient/AllergyIntolerance.read patient/Encounter.read patient/Practitioner.read patient/Organization.read patient/Location.read",
    );
    expect(scopeForCategories(["demographics"], "v2")).toBe("launch/patient offline_access patient/Patient.r");
  });

  it("takes v2 syntax only from a server advertising permission-v2", () => {
    expect(scopeSyntaxFor(["launch-standalone", "permission-v1", "permission-v2"])).toBe("v2");
    expect(scopeSyntaxFor(["launch-standalone", "permission-patient"])).toBe("v1");
    expect(scopeSyntaxFor([])).toBe("v1");
  });
});

describe("the category filter of a granted scope", () => {
  it("is the granted categories when every grant of the type is narrowed by category", () => {
    const granted = scopeForCategories(["labs", "vitals"], "v2");
    expect(grantedCategoryFilter(granted, "Observation")).toEqual([LAB, VITAL]);
    expect(grantedCategoryFilter(granted, "DiagnosticReport")).toEqual([LAB_REPORT]);
  });

  it("is null when a grant reads the whole type (v1, v2 without a query, a wildcard)", () => {
    expect(grantedCategoryFilter(`patient/Observation.read patient/Observation.rs?category=${LAB}`, "Observation")).toBeNull();
    expect(grantedCategoryFilter("patient/Encounter.rs", "Encounter")).toBeNull();
    expect(grantedCategoryFilter("patient/*.read", "Observation")).toBeNull();
  });

  it("is empty when nothing grants the type, and ignores grants narrowed by another parameter", () => {
    expect(grantedCategoryFilter("launch/patient patient/Condition.rs", "Observation")).toEqual([]);
    expect(grantedCategoryFilter("patient/Observation.rs?code=http://loinc.org|8867-4", "Observation")).toEqual([]);
  });
});

describe("whether a grant reads more than the shared categories need", () => {
  it("a v1 grant of a type the categories need only part of is broader; the v2 grant of the same categories is not", () => {
    expect(grantBroaderThan(scopeForCategories(["medications", "labs"], "v1"), ["medications", "labs"])).toBe(true);
    expect(grantBroaderThan(scopeForCategories(["medications", "labs"], "v2"), ["medications", "labs"])).toBe(false);
    expect(grantBroaderThan(scopeForCategories(["labs", "vitals"], "v2"), ["labs"])).toBe(true);
  });

  it("a v1 grant of whole categories is not broader; a wildcard or a type not needed is", () => {
    expect(grantBroaderThan(scopeForCategories(["medications", "allergies"], "v1"), ["medications", "allergies"])).toBe(false);
    expect(grantBroaderThan("launch/patient patient/*.read", ["allergies"])).toBe(true);
    expect(grantBroaderThan("launch/patient patient/Condition.read patient/AllergyIntolerance.read", ["allergies"])).toBe(true);
    expect(grantBroaderThan("", ["allergies"])).toBe(false);
  });
});
