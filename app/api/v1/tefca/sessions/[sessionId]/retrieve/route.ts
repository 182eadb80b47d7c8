import { route, serve } from "@/lib/api";
import { retrieveTefcaDocuments, retrieveTefcaSession, withEtag } from "@/lib/tefca";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  POST: route(retrieveTefcaSession, async ({ auth, params, body, request }) => {
    const retrieval = await retrieveTefcaDocuments(auth, params.sessionId, body, request.headers.get("if-match"));
    return withEtag(retrieval, retrieval.session.version);
  }),
});
