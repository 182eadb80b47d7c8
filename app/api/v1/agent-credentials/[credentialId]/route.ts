import { route, serve } from "@/lib/api";
import { revokeAgentCredential, revokeKeyCredential } from "@/lib/agents";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  DELETE: route(revokeAgentCredential, async ({ auth, params }) => ({ body: await revokeKeyCredential(auth, params.credentialId) })),
});
