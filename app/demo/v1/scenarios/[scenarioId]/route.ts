import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { DATA_NOTICE } from "@/lib/demo/notice";
import { presentScenario, scenarioOr404 } from "@/lib/demo/scenario-manifest";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({
    handler: ({ params }) => ({ body: { ...presentScenario(scenarioOr404(params.scenarioId ?? "")), notice: DATA_NOTICE } }),
  }),
});
