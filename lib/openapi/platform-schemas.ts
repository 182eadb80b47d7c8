import { z } from "zod";
import { CATEGORIES } from "@/lib/records/categories";

// Response shapes of the platform operations that exist so far. They live with the OpenAPI code until the
// platform's own domains grow schema modules; a test parses the real presenters' output with them.

export const healthResponseSchema = z
  .object({
    status: z.enum(["ok", "unavailable"]),
    version: z.string().describe("The Service-Version the deployment serves."),
    checks: z.object({ database: z.enum(["ok", "unreachable"]) }),
  })
  .meta({ id: "Health", description: "API availability and its dependencies' state." });

export const applicationSchema = z
  .object({
    object: z.literal("application"),
    id: z.string().describe("Application id (app_)."),
    name: z.string(),
    environment: z.enum(["sandbox", "live"]).describe("The environment of the calling key."),
    status: z.enum(["sandbox", "active", "suspended"]),
    categoryAllowlist: z.array(z.enum(CATEGORIES)).describe("Categories the application may request."),
    syncMode: z.enum(["one-time", "continuous"]),
    productionEnabled: z.boolean(),
  })
  .meta({ id: "Application", description: "The application and environment a key resolves to." });
