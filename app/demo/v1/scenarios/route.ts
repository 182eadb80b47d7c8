import { route, serve } from "@/lib/api";
import { demoList, listDemoScenarios, presentScenario } from "@/lib/demo";
import { SCENARIOS } from "@/lib/sandbox";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(listDemoScenarios, () => ({ body: demoList(SCENARIOS.map(presentScenario)) })),
});
