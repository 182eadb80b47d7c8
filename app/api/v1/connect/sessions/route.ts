import { route, serve } from "@/lib/api";
import { publicOrigin } from "@/lib/config";
import { createConnectSession, createSession } from "@/lib/connect";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(createConnectSession, async ({ auth, body, url }) => ({ status: 201, body: await createSession(auth, body, publicOrigin(url.origin)) })),
});
