import { z } from "zod";

export const healthResponseSchema = z
  .object({
    status: z.enum(["ok", "unavailable"]),
    version: z.string().describe("The Service-Version the deployment serves."),
    checks: z.object({ database: z.enum(["ok", "unreachable"]) }),
  })
  .meta({ id: "Health", description: "API availability and its dependencies' state." });

export type HealthResponse = z.output<typeof healthResponseSchema>;
