import { route, serve } from "@/lib/api";
import { listRecordChanges, readRecordChanges } from "@/lib/users";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(listRecordChanges, async ({ auth, params, query }) => ({
    body: await readRecordChanges(auth, params.subject, params.category, query),
  })),
});
