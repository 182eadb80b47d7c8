import { route, serve } from "@/lib/api";
import { revokeTefcaSession, revokeTefcaSessionOperation, withEtag } from "@/lib/tefca";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(revokeTefcaSessionOperation, async ({ auth, params, request }) => {
    const session = await revokeTefcaSession(auth, params.sessionId, request.headers.get("if-match"));
    return withEtag(session, session.version);
  }),
});
