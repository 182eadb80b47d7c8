import type { Bundle, FhirResource } from "fhir/r4";
import { ApiError } from "@/lib/http/api-error";
import { findFhirResource } from "./fhir-catalog";
import { withTestDataTag } from "./fhir-tag";

export const FHIR_JSON = "application/fhir+json";

/** GET /fhir/{resourceType}/{resourceId}: one resource from any scenario Bundle, or a whole scenario Bundle. */
export function readFhirResource(resourceType: string, id: string): FhirResource | Bundle {
  const resource = findFhirResource(resourceType, id);
  if (!resource) throw new ApiError("not_found", `No ${resourceType}/${id} in the demo scenario Bundles.`);
  return withTestDataTag(resource);
}
