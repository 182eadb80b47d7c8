import { route, serve } from "@/lib/api";
import { readDemoFhir, readFhirResource } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(readDemoFhir, ({ params }) => ({ body: readFhirResource(params.resourceType, params.resourceId) })),
});
