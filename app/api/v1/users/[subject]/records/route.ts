import { route, serve } from "@/lib/api";
import { getHealthRecord, readSnapshot } from "@/lib/users";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getHealthRecord, async ({ auth, params, query }) => ({ body: await readSnapshot(auth, params.subject, query.categories) })),
});
