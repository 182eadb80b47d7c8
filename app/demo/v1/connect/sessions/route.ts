import { route, serve } from "@/lib/api";
import { createDemoConnectSession, simulateConnectSession } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(createDemoConnectSession, ({ body }) => ({ status: 201, body: simulateConnectSession(body) })),
});
