import { route, serve } from "@/lib/api";
import { authorizeFhirRequest, searchEhr, searchEhrFhir } from "@/lib/ehr";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(searchEhrFhir, async ({ params, query, request }) => ({
    body: await searchEhr(params.providerId, authorizeFhirRequest(params.providerId, request), {
      resourceType: params.resourceType,
      patient: query.patient,
      ids: query._id?.split(",").filter((id) => id !== ""),
      categories: query.category?.split(",").filter((category) => category !== ""),
      count: query._count,
      offset: query._offset,
    }),
  })),
});
