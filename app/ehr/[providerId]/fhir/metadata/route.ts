import { route, serve } from "@/lib/api";
import { ehrCapabilityStatement, getEhrCapabilities } from "@/lib/ehr";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getEhrCapabilities, ({ params }) => ({ body: ehrCapabilityStatement(params.providerId) })),
});
