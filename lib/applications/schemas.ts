import { z } from "zod";
import { CATEGORIES } from "@/lib/records/schemas";

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

/** The dashboard's new-key form. */
export const createApiKeyInputSchema = z.object({
  environment: z.enum(["sandbox", "live"]),
  name: z.string().trim().min(1, "Give the key a name.").max(100),
});
export type CreateApiKeyInput = z.input<typeof createApiKeyInputSchema>;
