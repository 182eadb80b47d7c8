import { route, serve } from "@/lib/api";
import { getTefcaSession, readTefcaSession, withEtag } from "@/lib/tefca";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getTefcaSession, async ({ auth, params }) => {
    const session = await readTefcaSession(auth, params.sessionId);
    return withEtag(session, session.version);
  }),
});
