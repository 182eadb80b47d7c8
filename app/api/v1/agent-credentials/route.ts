import { route, serve } from "@/lib/api";
import { createAgentCredential, issueCredential } from "@/lib/agents";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(createAgentCredential, async ({ auth, body }) => {
    const { credential, token } = await issueCredential(auth, body);
    // The token is shown once: an idempotent replay answers the credential without it.
    return { status: 201, body: { ...credential, token }, replayBody: credential };
  }),
});
