import { route, serve } from "@/lib/api";
import { demoCapabilityStatement, getDemoFhirCapabilities } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getDemoFhirCapabilities, ({ url }) => ({ body: demoCapabilityStatement(url.origin) })),
});
