import type { FhirResource } from "fhir/r4";
import { patientFhirId } from "@/lib/fhir";
import { ApiError, jsonText, type JsonText } from "@/lib/http";
import { fhirAccess, outsideAccess, type FhirReader } from "./access";
import { readIncluded } from "./includes";
import { readServedText } from "./read-resources";
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
 * OperationOutcome entry says why; a type the API does not serve answers 404. The Bundle is answered as JSON text,
 * each stored resource spliced in as text (readServedText) rather than parsed and serialized again.
 */
export async function searchFhir(request: FhirSearchRequest): Promise<JsonText> {
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
    return jsonText(searchsetPage({ ...page, total: 0, matches: [], outcome: { error: outsideAccess(access, type), requestId: request.requestId } }));
  }
  const ids = query.ids?.map((id) => (type === "Patient" ? patientFhirId(id) : id.replace(/^rec_/, "rec-")));
  const scope = { subjectId, categories, types: [type] };
  const { resources, total } = await readServedText(scope, { ids, lastUpdated: query.lastUpdated, date: query.date, tokens: query.tokens }, { offset, count: query.count });
  const included =
    query.include.length === 0 ? [] : await readIncluded({ subjectId, categories: access.categories, types: access.types }, resources.map((resource) => JSON.parse(resource.json.text) as FhirResource), query.include);
  return jsonText(searchsetPage({ ...page, total, matches: resources, included }));
}
