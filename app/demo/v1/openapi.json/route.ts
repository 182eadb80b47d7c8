import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { demoOpenApiDocument } from "@/lib/openapi/demo-document";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({ handler: () => ({ body: demoOpenApiDocument() }) }),
});
