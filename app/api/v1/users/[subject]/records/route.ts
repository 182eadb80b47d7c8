import { route, serve } from "@/lib/api";
import { forceRunRateLimit } from "@/lib/conformance";
import { getHealthRecord, readSnapshot } from "@/lib/users";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getHealthRecord, async ({ auth, params, query, requestId }) => {
    await forceRunRateLimit(auth, requestId);
    return { body: await readSnapshot(auth, params.subject, query.categories) };
  }),
});
