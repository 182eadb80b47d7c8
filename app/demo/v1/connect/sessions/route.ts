import { simulateConnectSession } from "@/lib/demo/connect-session";
import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { connectSessionRequestSchema } from "@/lib/demo/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  POST: demoRoute({
    body: connectSessionRequestSchema,
    cache: "no-store",
    handler: ({ body }) => ({ status: 201, body: simulateConnectSession(body) }),
  }),
});
