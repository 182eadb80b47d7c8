import { route, serve } from "@/lib/api";
import { getConformanceReport, readReport } from "@/lib/conformance";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getConformanceReport, async ({ params }) => ({ body: await readReport(params.token) })),
});
