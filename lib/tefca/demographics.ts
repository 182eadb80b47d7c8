import { z } from "zod";
import { addApiIssue } from "@/lib/http/schemas";
import { TEFCA_PATIENT_ID } from "./network";

/**
 * Field names that carry a person's demographics (FHIR Patient's and the usual API spellings), compared without case,
 * dashes or underscores. The sandbox works only with its fixed fictional patient, so a body that carries any of them,
 * at any depth, is refused with `synthetic_patient_required` before anything else is checked.
 */
const DEMOGRAPHIC_FIELDS = new Set(
  [
    "name", "names", "given", "givenName", "family", "familyName", "firstName", "lastName", "middleName", "fullName", "maidenName",
    "birthDate", "dateOfBirth", "dob", "birthday", "age", "gender", "sex", "birthSex",
    "address", "addresses", "street", "city", "postalCode", "zip", "zipCode",
    "telecom", "phone", "phoneNumber", "mobile", "email",
    "identifier", "identifiers", "ssn", "socialSecurityNumber", "mrn", "medicalRecordNumber", "driversLicense",
    "race", "ethnicity", "maritalStatus", "mothersMaidenName",
  ].map(normalized),
);

function normalized(field: string): string {
  return field.toLowerCase().replace(/[-_]/g, "");
}

/** The first demographic field found in a JSON value, as a path ("patient.name"), or null. */
export function demographicField(value: unknown, path = ""): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = demographicField(item, path);
      if (found) return found;
    }
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  for (const [key, child] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (DEMOGRAPHIC_FIELDS.has(normalized(key))) return here;
    const found = demographicField(child, here);
    if (found) return found;
  }
  return null;
}

/**
 * A body schema that first refuses demographics (400 `synthetic_patient_required`) and then parses with `schema`,
 * so an unknown field that is a demographic is never reported as a mere `invalid_request`.
 */
export function withoutDemographics<S extends z.ZodType>(schema: S) {
  return z.preprocess((body, ctx) => {
    const field = demographicField(body);
    if (field === null) return body;
    addApiIssue(ctx, "synthetic_patient_required", `Never send demographics (${field}): the TEFCA sandbox works only with its fixed fictional patient ${TEFCA_PATIENT_ID}.`);
    return z.NEVER;
  }, schema);
}
