import { demoIndex } from "@/lib/demo/demo-index";
import { demoMethods, demoRoute } from "@/lib/demo/demo-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({ handler: () => ({ body: demoIndex() }) }),
});
