import type { FhirResource } from "fhir/r4";
import { withTestDataTag } from "@/lib/fhir";
import { ApiError } from "@/lib/http";
import { requireScope, type EhrAccess } from "./bearer-access";
import { patientResources } from "./fhir-data";
import { scopeAllowsResource } from "./scopes";

/**
 * GET [base]/{type}/{id}: one of the token's patient's resources. Another patient's resource is 404 exactly like
 * a resource that does not exist, so a token learns nothing about other patients.
 */
export async function readEhr(providerId: string, access: EhrAccess, resourceType: string, id: string): Promise<FhirResource> {
  requireScope(providerId, access, resourceType, "read");
  const resource = (await patientResources(access.patient)).find((candidate) => candidate.resourceType === resourceType && candidate.id === id);
  if (!resource) throw new ApiError("not_found", `No ${resourceType}/${id} for this patient.`);
  // A token narrowed to some categories of the type reads only those (SMART v2 granular scopes).
  if (!scopeAllowsResource(access.scope, resource as { resourceType: string; category?: unknown }, "read")) {
    throw new ApiError("insufficient_scope", `The token's scope does not allow reading ${resourceType}/${id}: its category is outside the granted ones.`);
  }
  return withTestDataTag(resource);
}
