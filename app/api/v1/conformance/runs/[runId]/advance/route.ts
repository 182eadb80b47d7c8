import { route, serve } from "@/lib/api";
import { publicOrigin } from "@/lib/config";
import { advanceConformanceRun, advanceRun } from "@/lib/conformance";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(advanceConformanceRun, async ({ auth, params, url }) => ({ body: await advanceRun(auth, params.runId, publicOrigin(url.origin)) })),
});
