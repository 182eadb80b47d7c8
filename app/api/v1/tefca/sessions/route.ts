import { route, serve } from "@/lib/api";
import { createTefcaSession, createTefcaSessionOperation, withEtag } from "@/lib/tefca";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(createTefcaSessionOperation, async ({ auth, body }) => {
    const session = await createTefcaSession(auth, body);
    return withEtag(session, session.version, 201);
  }),
});
