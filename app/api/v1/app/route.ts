import { route, serve } from "@/lib/api";
import { getApp, presentApplication } from "@/lib/applications";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getApp, ({ auth }) => ({ body: presentApplication(auth) })),
});
