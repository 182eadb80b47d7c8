import { route, serve } from "@/lib/api";
import { getEhrSmartConfiguration, smartConfiguration } from "@/lib/ehr";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getEhrSmartConfiguration, ({ params }) => ({ body: smartConfiguration(params.providerId) })),
});
