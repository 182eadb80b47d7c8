import { route, serve } from "@/lib/api";
import { listUsers, readUsers } from "@/lib/users";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(listUsers, async ({ auth, query }) => ({ body: await readUsers(auth, query) })),
});
