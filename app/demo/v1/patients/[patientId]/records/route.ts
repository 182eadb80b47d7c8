import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { buildLegacyRecord } from "@/lib/demo/legacy-record";
import { patientOr404 } from "@/lib/demo/patients";
import { authorizeRecordRead } from "@/lib/demo/record-read";

export const dynamic = "force-dynamic";

// Legacy route: every query parameter except categories (cursor, limit, ...) is ignored, as it always was.
export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({
    cache: "no-store",
    handler: ({ params, url, setHeader }) => {
      const scenario = patientOr404(params.patientId ?? "");
      const categories = authorizeRecordRead(scenario, url, setHeader);
      return { body: buildLegacyRecord(scenario, categories) };
    },
  }),
});
