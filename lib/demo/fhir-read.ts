import type { Bundle, FhirResource } from "fhir/r4";
import { ApiError } from "@/lib/http";
import { findFhirResource } from "./fhir-catalog";
import { withTestDataTag } from "@/lib/fhir";

/** GET /fhir/{resourceType}/{resourceId}: one resource from any scenario Bundle, or a whole scenario Bundle. */
export function readDemoFhir(resourceType: string, id: string): FhirResource | Bundle {
  const resource = findFhirResource(resourceType, id);
  if (!resource) throw new ApiError("not_found", `No ${resourceType}/${id} in the demo scenario Bundles.`);
  return withTestDataTag(resource);
}
