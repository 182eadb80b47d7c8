import { presentApplication } from "@/lib/applications/present-application";
import { apiRoute, methods } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: apiRoute({
    operation: "GET /app",
    auth: "key",
    handler: async ({ auth }) => ({ body: presentApplication(auth) }),
  }),
});
