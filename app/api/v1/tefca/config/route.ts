import { route, serve } from "@/lib/api";
import { getTefcaConfig, tefcaConfig } from "@/lib/tefca";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getTefcaConfig, ({ auth }) => ({ body: tefcaConfig(auth) })),
});
