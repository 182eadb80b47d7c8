import { route, serve } from "@/lib/api";
import { publicOrigin } from "@/lib/config";
import { getConformanceRun, readRun } from "@/lib/conformance";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getConformanceRun, async ({ auth, params, url }) => ({ body: await readRun(auth, params.runId, publicOrigin(url.origin)) })),
});
