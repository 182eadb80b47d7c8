import { route, serve } from "@/lib/api";
import { decideAuthorization, decideEhrAuthorization, showAuthorizePage, showEhrAuthorization } from "@/lib/ehr";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(showEhrAuthorization, ({ params, request }) => showAuthorizePage(params.providerId, request)),
  POST: route(decideEhrAuthorization, ({ params, request }) => decideAuthorization(params.providerId, request)),
});
