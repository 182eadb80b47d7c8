import type { KeyAuth } from "@/lib/auth";
import { authorizeSubjectRead } from "@/lib/consent";
import { ApiError } from "@/lib/http";
import type { Category } from "@/lib/records";
import { coveredCategories, SERVED_TYPES } from "./served-types";

/**
 * Who is reading: the key (for a delegated credential, its parent key narrowed to the credential's categories), and
 * where the subject read is named for the request log once the read is authorized (the route's logSubject), so a
 * FHIR read is in the subject's disclosure history as a JSON read is.
 */
export type FhirReader = { key: KeyAuth; agentSubject: string | null; logSubject?: (subjectId: string) => void };

/** What the reader may read of one subject: its categories, the types they serve, and why others are not served. */
export type FhirAccess = { subjectId: string; categories: Category[]; types: string[]; agent: boolean };

/**
 * The subject's FHIR access for this reader: 404 `not_found` unless the subject shares records with the key's
 * application now (as every read), and for a delegated credential unless it is the credential's subject.
 */
export async function fhirAccess(reader: FhirReader, subjectId: string): Promise<FhirAccess> {
  if (reader.agentSubject !== null && reader.agentSubject !== subjectId) throw new ApiError("subject_mismatch", "This credential is bound to another subject.");
  const { categories } = await authorizeSubjectRead(reader.key, subjectId);
  reader.logSubject?.(subjectId);
  return { subjectId, categories, types: SERVED_TYPES.filter((type) => coveredCategories(type, categories).length > 0), agent: reader.agentSubject !== null };
}

/** Why a served type is not readable for this access, as the OperationOutcome of an empty search says it. */
export function outsideAccess(access: FhirAccess, type: string): ApiError {
  return access.agent
    ? new ApiError("credential_scope_exceeded", `${type} is outside the categories this credential was granted.`)
    : new ApiError("app_scope_exceeded", `${type} is outside the subject's consent or the application's category allowlist.`);
}
