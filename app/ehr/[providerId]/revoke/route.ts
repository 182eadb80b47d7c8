import { route, serve } from "@/lib/api";
import { handleRevocationRequest, revokeEhrToken } from "@/lib/ehr";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(revokeEhrToken, ({ params, request }) => handleRevocationRequest(params.providerId, request)),
});
