import { describe, expect, it } from "vitest";
import { narrowedScope } from "./narrow-source-scope";
import { readResourceTypesFor, type Category } from "@/lib/records";
import { scopeForCategories } from "./smart-scopes";

const narrowed = (granted: string, categories: Category[]) => narrowedScope(granted, readResourceTypesFor(categories), categories);

const LAB = "http://terminology.hl7.org/CodeSystem/observation-category|laboratory";
const VITAL = "http://terminology.hl7.org/CodeSystem/observation-category|vital-signs";

describe("narrowedScope", () => {
  it("drops the per-type scopes of types the shared categories do not read, in either SMART syntax, and keeps the rest in order", () => {
    expect(narrowed("launch/patient offline_access patient/Patient.read patient/Condition.read patient/AllergyIntolerance.read", ["allergies"])).toBe(
      "launch/patient offline_access patient/AllergyIntolerance.read",
    );
    expect(narrowed(`openid launch/patient patient/Observation.rs?category=${LAB} patient/Condition.rs`, ["labs"])).toBe(`openid launch/patient patient/Observation.rs?category=${LAB}`);
  });

  it("drops a v2 grant narrowed to a category no longer shared, though its type still is", () => {
    const granted = scopeForCategories(["labs", "vitals", "medications"], "v2");
    const result = narrowed(granted, ["vitals"])!;
    expect(result).toBe(scopeForCategories(["vitals"], "v2"));
    expect(result).toContain(`patient/Observation.rs?category=${VITAL}`);
    expect(result).not.toContain(LAB);
  });

  it("without the categories, drops whole types only", () => {
    expect(narrowedScope(scopeForCategories(["labs", "vitals"], "v2"), ["Observation"])).toBe(
      `launch/patient offline_access patient/Observation.rs?category=${LAB} patient/Observation.rs?category=${VITAL}`,
    );
  });

  it("is null when nothing is to be dropped: all types shared, a wildcard, or no scope known", () => {
    expect(narrowed("launch/patient patient/Condition.read", ["conditions", "labs"])).toBeNull();
    expect(narrowed(scopeForCategories(["labs"], "v2"), ["labs"])).toBeNull();
    expect(narrowed("launch/patient patient/*.read", ["conditions"])).toBeNull();
    expect(narrowed("", ["conditions"])).toBeNull();
  });
});
