import { route, serve } from "@/lib/api";
import { authorizeRecordRead, buildLegacyRecord, getDemoLegacyRecord, patientOr404 } from "@/lib/demo";

export const dynamic = "force-dynamic";

// Legacy route: every query parameter except categories (cursor, limit, ...) is ignored, as it always was.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getDemoLegacyRecord, ({ params, query, setHeader }) => {
    const scenario = patientOr404(params.patientId);
    const categories = authorizeRecordRead(scenario, query.categories, setHeader);
    return { body: buildLegacyRecord(scenario, categories) };
  }),
});
