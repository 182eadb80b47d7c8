import { route, serve } from "@/lib/api";
import { publicOrigin } from "@/lib/config";
import { cancelConnectSession, cancelSession } from "@/lib/connect";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(cancelConnectSession, async ({ auth, params, url }) => ({ body: await cancelSession(auth, params.sessionId, publicOrigin(url.origin)) })),
});
