import { route, serve } from "@/lib/api";
import { forceRunRateLimit } from "@/lib/conformance";
import { listCategoryRecords, readCategoryRecords } from "@/lib/users";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(listCategoryRecords, async ({ auth, params, query, requestId }) => {
    await forceRunRateLimit(auth, requestId);
    return { body: await readCategoryRecords(auth, params.subject, params.category, query) };
  }),
});
