import { describe, expect, it } from "vitest";
import { CATEGORIES } from "./category-names";
import { CATEGORY_RESOURCE_TYPES, resourceTypesFor } from "./category-resource-types";
import { NORMALIZERS } from "./normalize";

describe("the category to FHIR resource types list", () => {
  it("covers exactly the types a normalizer maps to a category", () => {
    // Encounters are normalized only into a reported skip (the visit context records carry), so no category reads them:
    // a patient sharing labs is not asked for every visit.
    const mapped = Object.keys(NORMALIZERS).filter((type) => type !== "Encounter");
    expect(new Set(resourceTypesFor(CATEGORIES))).toEqual(new Set(mapped));
    for (const category of CATEGORIES) expect(CATEGORY_RESOURCE_TYPES[category].length).toBeGreaterThan(0);
  });

  it("lists the types of the given categories once each, in category order", () => {
    expect(resourceTypesFor(["vitals", "labs"])).toEqual(["Observation", "DiagnosticReport"]);
    expect(resourceTypesFor(["allergies", "demographics"])).toEqual(["Patient", "AllergyIntolerance"]);
    expect(resourceTypesFor([])).toEqual([]);
  });
});
