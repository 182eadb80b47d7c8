import { route, serve } from "@/lib/api";
import { exportTefcaRecords, exportTefcaSession, withEtag } from "@/lib/tefca";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(exportTefcaSession, async ({ auth, params, query }) => {
    const exported = await exportTefcaRecords(auth, params.sessionId, query.format);
    return withEtag(exported.body, exported.session.version);
  }),
});
