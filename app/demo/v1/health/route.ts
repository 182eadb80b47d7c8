import { route, serve } from "@/lib/api";
import { DATA_NOTICE, getDemoHealth } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getDemoHealth, () => ({ body: { status: "ok", notice: DATA_NOTICE } })),
});
