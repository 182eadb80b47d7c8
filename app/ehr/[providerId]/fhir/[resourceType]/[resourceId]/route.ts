import { route, serve } from "@/lib/api";
import { authorizeFhirRequest, readEhr, readEhrFhir } from "@/lib/ehr";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(readEhrFhir, async ({ params, request }) => ({
    body: await readEhr(params.providerId, authorizeFhirRequest(params.providerId, request), params.resourceType, params.resourceId),
  })),
});
