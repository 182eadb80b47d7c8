import { databaseReachable } from "@/lib/db";
import { SERVICE_VERSION } from "@/lib/http";
import type { HealthResponse } from "./schemas";

/** GET /health: whether the API can serve, and which dependency is the trouble when it cannot. */
export async function getHealth(): Promise<{ status: 200 | 503; body: HealthResponse }> {
  const database = await databaseReachable();
  return {
    status: database ? 200 : 503,
    body: { status: database ? "ok" : "unavailable", version: SERVICE_VERSION, checks: { database: database ? "ok" : "unreachable" } },
  };
}
