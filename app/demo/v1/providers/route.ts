import { demoList } from "@/lib/demo/demo-list";
import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { PROVIDERS } from "@/lib/sandbox/scenarios";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({
    handler: () => ({
      body: demoList(PROVIDERS.map(({ id, name, city, state, description }) => ({ id, name, city, state, description }))),
    }),
  }),
});
