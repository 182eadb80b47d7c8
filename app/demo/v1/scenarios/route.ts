import { demoList } from "@/lib/demo/demo-list";
import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { presentScenario } from "@/lib/demo/scenario-manifest";
import { SCENARIOS } from "@/lib/sandbox/scenarios";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({ handler: () => ({ body: demoList(SCENARIOS.map(presentScenario)) }) }),
});
