import { route, serve } from "@/lib/api";
import { applySandboxEvent, triggerSandboxEvent } from "@/lib/simulation";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(triggerSandboxEvent, async ({ auth, params, body }) => ({ body: await applySandboxEvent(auth, params.subject, body) })),
});
