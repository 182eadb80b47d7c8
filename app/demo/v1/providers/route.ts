import { route, serve } from "@/lib/api";
import { listDemoProviders, listProviders } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(listDemoProviders, () => ({ body: listProviders() })),
});
