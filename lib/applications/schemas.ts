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

export const applicationNameSchema = z.string().trim().min(1, "Give the application a name.").max(100);

export const createApplicationInputSchema = z.object({ name: applicationNameSchema });
export type CreateApplicationInput = z.input<typeof createApplicationInputSchema>;

export const renameApplicationInputSchema = z.object({ name: applicationNameSchema });

export const categoryAllowlistInputSchema = z.object({
  categories: z.array(z.enum(CATEGORIES)).min(1, "Allow at least one category.").transform((list) => CATEGORIES.filter((category) => list.includes(category))),
});

export const syncModeInputSchema = z.object({ syncMode: z.enum(["one-time", "continuous"]) });

const MAX_REDIRECT_URLS = 10;

/** Whether a registered redirect URL is acceptable: absolute, https (http only for localhost), no credentials or fragment. */
export function redirectUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Enter an absolute URL, such as https://example.com/callback.";
  }
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) return "Use https (http is allowed only for localhost).";
  if (url.username || url.password) return "Remove the credentials from the URL.";
  if (url.hash) return "Remove the #fragment from the URL.";
  return null;
}

export const redirectUrlsInputSchema = z.object({
  redirectUrls: z
    .array(
      z
        .string()
        .trim()
        .max(2000)
        .superRefine((value, context) => {
          const problem = redirectUrlProblem(value);
          if (problem) context.addIssue({ code: "custom", message: problem });
        }),
    )
    .max(MAX_REDIRECT_URLS, `At most ${MAX_REDIRECT_URLS} redirect URLs.`)
    .transform((list) => [...new Set(list)]),
});

export const webhookUrlInputSchema = z.object({ webhookUrl: z.string().trim().max(2000).nullable() });

/**
 * The request for production a developer sends to the deployment's operators: what the application does, the
 * redirect URLs it will use with real patients (https only; no localhost in production) and whom to contact.
 */
export const productionRequestInputSchema = z.object({
  description: z.string().trim().min(20, "Describe what the application does (at least 20 characters).").max(2000),
  redirectUrls: z
    .array(
      z
        .string()
        .trim()
        .max(2000)
        .superRefine((value, context) => {
          const problem = redirectUrlProblem(value) ?? (new URL(value).protocol === "https:" ? null : "Production redirect URLs must use https.");
          if (problem) context.addIssue({ code: "custom", message: problem });
        }),
    )
    .min(1, "Give at least one redirect URL.")
    .max(MAX_REDIRECT_URLS, `At most ${MAX_REDIRECT_URLS} redirect URLs.`)
    .transform((list) => [...new Set(list)]),
  contactEmail: z.string().trim().toLowerCase().max(254).pipe(z.email({ error: "Enter a valid contact email address." })),
});
export type ProductionRequestInput = z.input<typeof productionRequestInputSchema>;
