import type { Bundle } from "fhir/r4";
import { patientFhirId } from "@/lib/fhir";
import { ApiError } from "@/lib/http";
import { fhirAccess, outsideAccess, type FhirReader } from "./access";
import { readIncluded } from "./includes";
import { readServed } from "./read-resources";
import { searchQuery } from "./search-query";
import { cursorOffset, searchBinding, searchsetPage } from "./searchset";
import { coveredCategories, isServedType } from "./served-types";

export type FhirSearchRequest = { reader: FhirReader; base: string; requestId: string; resourceType: string; params: URLSearchParams };

/** The subject a search reads: `patient`, else a Patient search's `_id`, else a delegated credential's subject. */
function searchedSubject(request: FhirSearchRequest, patient: string | null, ids: string[] | null): string {
  if (patient) return patient;
  if (request.resourceType === "Patient" && ids?.length === 1) return ids[0]!.replace(/^u-/, "u_");
  if (request.reader.agentSubject) return request.reader.agentSubject;
  throw new ApiError("invalid_query", "Name the subject: patient=<subject> (the subject id is the Patient id).");
}

/**
 * GET /fhir/{resourceType}: a searchset of one subject's resources of the type, as the consent allows. A type the
 * subject's receipt, the application's allowlist or the credential does not cover answers an empty Bundle whose
 * OperationOutcome entry says why; a type the API does not serve answers 404.
 */
export async function searchFhir(request: FhirSearchRequest): Promise<Bundle> {
  const { resourceType: type, reader } = request;
  if (!isServedType(type)) throw new ApiError("not_found", `${type} is not a resource type this API serves; see metadata.`);
  const query = searchQuery(type, request.params);
  const subjectId = searchedSubject(request, query.patient, query.ids);
  const access = await fhirAccess(reader, subjectId);
  const binding = searchBinding({ applicationId: reader.key.application.id, environment: reader.key.environment, subject: subjectId }, type, query.applied, query.count);
  const offset = cursorOffset(query.cursor, binding);
  const page = { base: request.base, path: type, applied: query.applied, count: query.count, offset, binding };
  const categories = coveredCategories(type, access.categories);
  if (categories.length === 0) {
    return searchsetPage({ ...page, total: 0, matches: [], outcome: { error: outsideAccess(access, type), requestId: request.requestId } });
  }
  const ids = query.ids?.map((id) => (type === "Patient" ? patientFhirId(id) : id.replace(/^rec_/, "rec-")));
  const scope = { subjectId, categories, types: [type] };
  const { resources, total } = await readServed(scope, { ids, lastUpdated: query.lastUpdated, date: query.date, tokens: query.tokens }, { offset, count: query.count });
  const included = await readIncluded({ subjectId, categories: access.categories, types: access.types }, resources, query.include);
  return searchsetPage({ ...page, total, matches: resources, included });
}
