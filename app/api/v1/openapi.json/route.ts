import { apiRoute, methods } from "@/lib/http/api-route";
import { platformOpenApiDocument } from "@/lib/openapi/platform-document";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: apiRoute({
    operation: "GET /openapi.json",
    auth: "none",
    handler: async () => ({ body: platformOpenApiDocument(), headers: { "Cache-Control": "public, max-age=300" } }),
  }),
});
