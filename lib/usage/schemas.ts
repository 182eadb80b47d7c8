import { z } from "zod";

/** A status filter: a class (`2xx`, `4xx`, `5xx`) or one exact status code. */
export const statusFilterSchema = z.union([z.enum(["2xx", "3xx", "4xx", "5xx"]), z.coerce.number().int().min(100).max(599)]);
export type StatusFilter = z.infer<typeof statusFilterSchema>;

/** The recent-requests filters (from the page's query string or form). */
export const recentRequestsFilterSchema = z.object({
  status: statusFilterSchema.optional(),
  apiKeyId: z.string().min(1).optional(),
  environment: z.enum(["sandbox", "live"]).optional(),
  cursor: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type RecentRequestsFilter = z.input<typeof recentRequestsFilterSchema>;

export const usageRangeSchema = z.object({ days: z.coerce.number().int().min(1).max(30).default(14) });
