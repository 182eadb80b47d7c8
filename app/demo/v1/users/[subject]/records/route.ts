import { route, serve } from "@/lib/api";
import { authorizeRecordRead, buildHealthRecord, getDemoHealthRecord, rejectUnsupportedQuery, subjectOr404 } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getDemoHealthRecord, ({ params, query, url, setHeader }) => {
    const scenario = subjectOr404(params.subject);
    const categories = authorizeRecordRead(scenario, query.categories, setHeader);
    rejectUnsupportedQuery(url);
    return { body: buildHealthRecord(scenario, categories) };
  }),
});
