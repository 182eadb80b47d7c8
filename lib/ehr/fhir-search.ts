import { searchsetBundle, withTestDataTag } from "@/lib/fhir";
import { ApiError, jsonText, type JsonText } from "@/lib/http";
import { requireScope, type EhrAccess } from "./bearer-access";
import { patientResourcesOfType, searchableTypes, servedResourceText } from "./fhir-data";
import { ehrEndpoints } from "./providers";
import { hasCategoryToken, scopeAllowsResource } from "./scopes";

export type EhrSearch = { resourceType: string; patient?: string; ids?: string[]; categories?: string[]; count?: number; offset?: number };

/** `Patient/{id}`, a bare id, or an absolute reference ending in either: the patient a search names. */
function referencedPatientId(reference: string): string {
  const tail = reference.split("/").filter((part) => part !== "");
  return tail[tail.length - 1] ?? "";
}

/**
 * GET [base]/{type}: the token's patient's resources of the type, paged with `_count` and `next` links. `patient`
 * may be omitted (the token's patient is implied) but may not name anyone else. The self and next links always
 * carry the patient, so paging never depends on the token alone. `_id` narrows the matches to the listed ids (how
 * a client reads the Medications, Practitioners... its records reference, twenty at a time); `category` to the
 * resources with one of the listed categories. A token narrowed to some categories of the type (SMART v2
 * `patient/Observation.rs?category=…`) finds only those: the rest are filtered out, as a server enforcing
 * granular scopes may do.
 */
export async function searchEhr(providerId: string, access: EhrAccess, search: EhrSearch): Promise<JsonText> {
  if (!searchableTypes(providerId).includes(search.resourceType)) {
    throw new ApiError("not_found", `This server does not search ${search.resourceType}; GET [base]/metadata lists the types.`);
  }
  requireScope(providerId, access, search.resourceType, "search");
  if (search.patient !== undefined && referencedPatientId(search.patient) !== access.patient.fhirPatientId) {
    throw new ApiError("subject_mismatch", "The access token is for another patient; a search may name only the token's patient.");
  }
  const fhirBase = ehrEndpoints(providerId).fhirBase;
  const self = new URL(`${fhirBase}/${search.resourceType}`);
  self.searchParams.set("patient", access.patient.fhirPatientId);
  const ids = search.ids === undefined ? null : new Set(search.ids);
  if (ids) self.searchParams.set("_id", [...ids].join(","));
  const categories = search.categories?.length ? search.categories : null;
  if (categories) self.searchParams.set("category", categories.join(","));
  const ofType = await patientResourcesOfType(access.patient, search.resourceType);
  const matches = ofType.filter(
    (resource) =>
      (ids === null || ids.has(resource.id ?? "")) &&
      (categories === null || categories.some((token) => hasCategoryToken(resource as { category?: unknown }, token))) &&
      scopeAllowsResource(access.scope, resource as { resourceType: string; category?: unknown }, "search"),
  );
  const { entry, ...bundle } = searchsetBundle({ self, baseUrl: fhirBase, matches, count: search.count, offset: search.offset });
  // The keys in withTestDataTag's order: the bundle's own, entry where it was, then meta (the tag it adds).
  const { meta, ...tagged } = withTestDataTag(bundle);
  return jsonText({ ...tagged, entry: entry?.map((item) => ({ ...item, resource: servedResourceText(item.resource!) })), meta });
}
