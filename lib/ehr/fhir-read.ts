import type { FhirResource } from "fhir/r4";
import { withTestDataTag } from "@/lib/fhir";
import { ApiError } from "@/lib/http";
import { requireScope, type EhrAccess } from "./bearer-access";
import { patientResources } from "./fhir-data";

/**
 * GET [base]/{type}/{id}: one of the token's patient's resources. Another patient's resource is 404 exactly like
 * a resource that does not exist, so a token learns nothing about other patients.
 */
export async function readEhr(providerId: string, access: EhrAccess, resourceType: string, id: string): Promise<FhirResource> {
  requireScope(providerId, access, resourceType, "read");
  const resource = (await patientResources(access.patient)).find((candidate) => candidate.resourceType === resourceType && candidate.id === id);
  if (!resource) throw new ApiError("not_found", `No ${resourceType}/${id} for this patient.`);
  return withTestDataTag(resource);
}
