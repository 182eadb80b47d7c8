import { route, serve } from "@/lib/api";
import { DEMO_TOOLS, demoMcp, serveMcp } from "@/lib/mcp";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(demoMcp, ({ request, requestId, body }) => serveMcp(DEMO_TOOLS, request, requestId, body)),
});
