import { route, serve } from "@/lib/api";
import { demoOpenApiDocument, getDemoOpenApi } from "@/lib/openapi";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getDemoOpenApi, () => ({ body: demoOpenApiDocument() })),
});
