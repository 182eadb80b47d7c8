import { apiRoute, methods } from "@/lib/http/api-route";
import { SERVICE_VERSION } from "@/lib/http/headers";
import { databaseReachable } from "@/lib/db/health";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: apiRoute({
    operation: "GET /health",
    auth: "none",
    handler: async () => {
      const database = await databaseReachable();
      return {
        status: database ? 200 : 503,
        body: { status: database ? "ok" : "unavailable", version: SERVICE_VERSION, checks: { database: database ? "ok" : "unreachable" } },
        headers: { "Cache-Control": "no-store" },
      };
    },
  }),
});
