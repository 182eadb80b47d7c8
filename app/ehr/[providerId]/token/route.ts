import { route, serve } from "@/lib/api";
import { handleTokenRequest, requestEhrToken } from "@/lib/ehr";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(requestEhrToken, ({ params, request }) => handleTokenRequest(params.providerId, request)),
});
