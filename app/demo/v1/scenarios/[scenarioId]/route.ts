import { route, serve } from "@/lib/api";
import { DATA_NOTICE, getDemoScenario, presentScenario, scenarioOr404 } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getDemoScenario, ({ params }) => ({ body: { ...presentScenario(scenarioOr404(params.scenarioId)), notice: DATA_NOTICE } })),
});
