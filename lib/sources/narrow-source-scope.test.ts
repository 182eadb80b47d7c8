import { describe, expect, it } from "vitest";
import { narrowedScope } from "./narrow-source-scope";

describe("narrowedScope", () => {
  it("drops the per-type scopes of types not shared, in either SMART syntax, and keeps the rest in order", () => {
    expect(narrowedScope("launch/patient offline_access patient/Patient.read patient/Condition.read patient/AllergyIntolerance.read", ["AllergyIntolerance"])).toBe(
      "launch/patient offline_access patient/AllergyIntolerance.read",
    );
    expect(narrowedScope("openid launch/patient patient/Observation.rs?category=laboratory patient/Condition.rs", ["Observation"])).toBe(
      "openid launch/patient patient/Observation.rs?category=laboratory",
    );
  });

  it("is null when nothing is to be dropped: all types shared, a wildcard, or no scope known", () => {
    expect(narrowedScope("launch/patient patient/Condition.read", ["Condition", "Observation"])).toBeNull();
    expect(narrowedScope("launch/patient patient/*.read", ["Condition"])).toBeNull();
    expect(narrowedScope("", ["Condition"])).toBeNull();
  });
});
