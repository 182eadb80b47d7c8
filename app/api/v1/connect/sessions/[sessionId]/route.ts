import { route, serve } from "@/lib/api";
import { publicOrigin } from "@/lib/config";
import { getConnectSession, readSession } from "@/lib/connect";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getConnectSession, async ({ auth, params, url }) => ({ body: await readSession(auth, params.sessionId, publicOrigin(url.origin)) })),
});
