import { route, serve } from "@/lib/api";
import { PLATFORM_TOOLS, platformMcp, serveMcp } from "@/lib/mcp";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(platformMcp, ({ request, requestId, body }) => serveMcp(PLATFORM_TOOLS, request, requestId, body)),
});
