import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { DATA_NOTICE } from "@/lib/demo/notice";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({ cache: "no-store", handler: () => ({ body: { status: "ok", notice: DATA_NOTICE } }) }),
});
