import { route, serve } from "@/lib/api";
import { publicOrigin } from "@/lib/config";
import { simulateConnectSession, simulateSession } from "@/lib/simulation";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(simulateConnectSession, async ({ auth, params, body, url }) => ({
    body: await simulateSession(auth, params.sessionId, body.scenario, publicOrigin(url.origin)),
  })),
});
