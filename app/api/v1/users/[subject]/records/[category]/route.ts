import { route, serve } from "@/lib/api";
import { listCategoryRecords, readCategoryRecords } from "@/lib/users";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(listCategoryRecords, async ({ auth, params, query }) => ({
    body: await readCategoryRecords(auth, params.subject, params.category, query),
  })),
});
