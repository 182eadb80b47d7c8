import { route, serve } from "@/lib/api";
import { getPlatformOpenApi, platformOpenApiDocument } from "@/lib/openapi";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getPlatformOpenApi, () => ({ body: platformOpenApiDocument() })),
});
