import { route, serve } from "@/lib/api";
import { publicOrigin } from "@/lib/config";
import { createRun, listConformanceRuns, listRuns, startConformanceRun } from "@/lib/conformance";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(listConformanceRuns, async ({ auth, query, url }) => ({ body: await listRuns(auth, query, publicOrigin(url.origin)) })),
  POST: route(startConformanceRun, async ({ auth, body, url }) => ({ status: 201, body: await createRun(auth, body, publicOrigin(url.origin)) })),
});
