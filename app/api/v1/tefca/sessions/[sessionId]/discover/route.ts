import { route, serve } from "@/lib/api";
import { discoverTefcaDocuments, discoverTefcaSession, withEtag } from "@/lib/tefca";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(discoverTefcaSession, async ({ auth, params, body, request }) => {
    const session = await discoverTefcaDocuments(auth, params.sessionId, body, request.headers.get("if-match"));
    return withEtag(session, session.version);
  }),
});
