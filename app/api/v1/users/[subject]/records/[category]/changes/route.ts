import { route, serve } from "@/lib/api";
import { forceRunRateLimit } from "@/lib/conformance";
import { listRecordChanges, readRecordChanges } from "@/lib/users";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(listRecordChanges, async ({ auth, params, query, requestId }) => {
    await forceRunRateLimit(auth, requestId);
    return { body: await readRecordChanges(auth, params.subject, params.category, query) };
  }),
});
