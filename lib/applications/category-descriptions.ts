import { CATEGORIES, type Category } from "@/lib/records";

/** The ten categories as the allowlist editor shows them: what each holds, and the FHIR R4 resources behind it. */
export const CATEGORY_DESCRIPTIONS: ReadonlyArray<{ category: Category; label: string; description: string; fhir: string }> = [
  { category: "demographics", label: "Demographics", description: "Name, birth date, sex, address and contact details on file.", fhir: "Patient" },
  { category: "conditions", label: "Conditions", description: "Diagnoses and problems, with onset and clinical status.", fhir: "Condition" },
  { category: "medications", label: "Medications", description: "Prescriptions and medicines taken, with dose and status.", fhir: "MedicationRequest, MedicationStatement" },
  { category: "allergies", label: "Allergies", description: "Allergies and intolerances, and the reactions recorded.", fhir: "AllergyIntolerance" },
  { category: "immunizations", label: "Immunizations", description: "Vaccines given, with date and lot.", fhir: "Immunization" },
  { category: "labs", label: "Lab results", description: "Laboratory results with values, units and reference ranges.", fhir: "Observation (laboratory)" },
  { category: "vitals", label: "Vital signs", description: "Blood pressure, heart rate, weight, height, temperature and similar.", fhir: "Observation (vital-signs)" },
  { category: "procedures", label: "Procedures", description: "Surgeries and other procedures performed.", fhir: "Procedure" },
  { category: "documents", label: "Documents", description: "Clinical notes and other documents, with their type and date.", fhir: "DocumentReference" },
  { category: "claims", label: "Claims", description: "Insurance claims and explanations of benefits.", fhir: "ExplanationOfBenefit, Claim" },
];

// Keeps the list complete and in category order if a category is ever added.
if (CATEGORY_DESCRIPTIONS.map((entry) => entry.category).join() !== CATEGORIES.join()) {
  throw new Error("CATEGORY_DESCRIPTIONS must list every category in CATEGORIES order");
}
