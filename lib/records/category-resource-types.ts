import { CATEGORIES, type Category } from "./category-names";

/**
 * The FHIR R4 resource types each category is read from (design §6): the one list behind the SMART scopes the
 * platform asks a health system for, the searches an import makes, and so what it stores. A type may serve two
 * categories: Observation holds labs and vital signs (the normalizer tells them apart), and a DiagnosticReport is a
 * documents record and the report its lab results name. Every type a normalizer maps is in it (a test checks).
 */
export const CATEGORY_RESOURCE_TYPES: Readonly<Record<Category, readonly string[]>> = {
  demographics: ["Patient"],
  conditions: ["Condition"],
  medications: ["MedicationRequest", "MedicationStatement", "MedicationDispense"],
  allergies: ["AllergyIntolerance"],
  immunizations: ["Immunization"],
  labs: ["Observation", "DiagnosticReport"],
  vitals: ["Observation"],
  procedures: ["Procedure"],
  documents: ["DocumentReference", "DiagnosticReport"],
  claims: ["Claim", "ExplanationOfBenefit", "Coverage"],
};

/** The resource types the categories are read from, each once, in category order. */
export function resourceTypesFor(categories: readonly Category[]): string[] {
  return [...new Set(CATEGORIES.filter((category) => categories.includes(category)).flatMap((category) => CATEGORY_RESOURCE_TYPES[category]))];
}
