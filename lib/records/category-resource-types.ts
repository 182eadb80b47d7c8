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

/**
 * Types no category is read from but whose resources records reference for what they show: the Medication a
 * prescription names, the Encounter whose date, type and place a record carries, the Practitioner, Organization or
 * Location it names, the Specimen a lab result was measured on. An import reads the referenced ones, never stores
 * them as records (the fidelity report lists them as read only as context).
 */
export const CONTEXT_RESOURCE_TYPES: readonly string[] = ["Encounter", "Medication", "Practitioner", "Organization", "Location", "Specimen"];

/**
 * The context types each category's records reference, so the ones an import of it reads: every clinical record
 * may name its visit (Encounter, and the Location the visit took place at), who recorded or performed it
 * (Practitioner, Organization); only prescriptions name a Medication and only lab results a Specimen. A
 * demographics record references none.
 */
const CATEGORY_CONTEXT_TYPES: Readonly<Record<Category, readonly string[]>> = {
  demographics: [],
  conditions: ["Encounter", "Practitioner", "Organization", "Location"],
  medications: ["Encounter", "Medication", "Practitioner", "Organization", "Location"],
  allergies: ["Encounter", "Practitioner", "Organization", "Location"],
  immunizations: ["Encounter", "Practitioner", "Organization", "Location"],
  labs: ["Encounter", "Practitioner", "Organization", "Location", "Specimen"],
  vitals: ["Encounter", "Practitioner", "Organization", "Location"],
  procedures: ["Encounter", "Practitioner", "Organization", "Location"],
  documents: ["Encounter", "Practitioner", "Organization", "Location"],
  claims: ["Encounter", "Practitioner", "Organization", "Location"],
};

/**
 * Every type an import of `categories` reads, so the read scopes a health system is asked for and that the
 * source's tokens are narrowed to: the categories' own types; the context types they reference (in
 * CONTEXT_RESOURCE_TYPES order); Binary when documents are shared (the C-CDA documents a DocumentReference links to).
 */
export function readResourceTypesFor(categories: readonly Category[]): string[] {
  const context = CONTEXT_RESOURCE_TYPES.filter((type) => categories.some((category) => CATEGORY_CONTEXT_TYPES[category].includes(type)));
  return [...resourceTypesFor(categories), ...context, ...(categories.includes("documents") ? ["Binary"] : [])];
}
