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

/**
 * The first demographic field found in a JSON value, as a path ("patient.name"), or null. Fields are visited depth
 * first in document order, with a stack of its own rather than recursion: a body is untrusted, and however deep it
 * nests, walking it cannot overflow the call stack.
 */
export function demographicField(value: unknown): string | null {
  const pending: ({ value: unknown; path: string } | { key: string; child: unknown; path: string })[] = [{ value, path: "" }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if ("key" in next) {
      if (DEMOGRAPHIC_FIELDS.has(normalized(next.key))) return next.path;
      pending.push({ value: next.child, path: next.path });
    } else if (Array.isArray(next.value)) {
      for (let index = next.value.length - 1; index >= 0; index--) pending.push({ value: next.value[index], path: next.path });
    } else if (typeof next.value === "object" && next.value !== null) {
      const entries = Object.entries(next.value);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index]!;
        pending.push({ key, child, path: next.path ? `${next.path}.${key}` : key });
      }
    }
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
