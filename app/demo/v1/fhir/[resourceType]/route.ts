import { route, serve } from "@/lib/api";
import { searchDemoFhir, searchFhir } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(searchDemoFhir, ({ params, query, url }) => ({ body: searchFhir(params.resourceType, query.patient ?? null, url.origin) })),
});
