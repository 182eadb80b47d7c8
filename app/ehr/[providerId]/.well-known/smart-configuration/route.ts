import { route, serve } from "@/lib/api";
import { getEhrRootSmartConfiguration, smartConfiguration } from "@/lib/ehr";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getEhrRootSmartConfiguration, ({ params }) => ({ body: smartConfiguration(params.providerId) })),
});
