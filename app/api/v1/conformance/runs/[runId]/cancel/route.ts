import { route, serve } from "@/lib/api";
import { publicOrigin } from "@/lib/config";
import { cancelConformanceRun, cancelRun } from "@/lib/conformance";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(cancelConformanceRun, async ({ auth, params, url }) => ({ body: await cancelRun(auth, params.runId, publicOrigin(url.origin)) })),
});
