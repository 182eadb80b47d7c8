import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { buildHealthRecord } from "@/lib/demo/health-record";
import { subjectOr404 } from "@/lib/demo/patients";
import { authorizeRecordRead, rejectUnsupportedQuery } from "@/lib/demo/record-read";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({
    cache: "no-store",
    handler: ({ params, url, setHeader }) => {
      const scenario = subjectOr404(params.subject ?? "");
      const categories = authorizeRecordRead(scenario, url, setHeader);
      rejectUnsupportedQuery(url);
      return { body: buildHealthRecord(scenario, categories) };
    },
  }),
});
