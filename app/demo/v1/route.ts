import { route, serve } from "@/lib/api";
import { demoIndex, getDemoIndex } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getDemoIndex, () => ({ body: demoIndex() })),
});
