import type { Category } from "@/lib/records";

/** Each category in words a patient understands, for the consent screens and the receipt page. */
export const CATEGORY_TEXT: Record<Category, { label: string; detail: string }> = {
  demographics: { label: "Basic details", detail: "Your name, date of birth, sex and address on file." },
  conditions: { label: "Conditions", detail: "Diagnoses and health problems your care team recorded." },
  medications: { label: "Medications", detail: "Prescriptions, medicines you take and pharmacy fills." },
  allergies: { label: "Allergies", detail: "Allergies and intolerances, and reactions to them." },
  immunizations: { label: "Vaccinations", detail: "Vaccines you received, and when." },
  labs: { label: "Lab results", detail: "Blood tests and other laboratory results." },
  vitals: { label: "Vital signs", detail: "Blood pressure, heart rate, weight, height and similar measurements." },
  procedures: { label: "Procedures", detail: "Surgeries and other procedures you had." },
  documents: { label: "Clinical notes", detail: "Visit notes and other documents from your care team." },
  claims: { label: "Insurance claims", detail: "Claims and explanations of benefits from your insurer." },
};
