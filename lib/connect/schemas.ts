import { z } from "zod";
import { CATEGORIES, fidelityReportSchema } from "@/lib/records/schemas";

export const CONNECT_SESSION_MINUTES = 60;

export const createSessionBodySchema = z
  .strictObject({
    categories: z.array(z.string()).describe(`What to ask the patient for: a subset of the application's allowlist (${CATEGORIES.join(", ")}).`).meta({ example: ["medications", "allergies", "labs"] }),
    externalUserId: z.string().min(1).max(200).optional().describe("Your id for the user; two completed sessions with the same one share a subject."),
    redirectUrl: z.string().url().optional().describe("Where the patient returns; one of the application's redirect URLs (sandbox: also any http://localhost URL). The platform adds `session_id` and `status` (`completed` or `cancelled`), and after consent `receipt_id` and `receipt_url` (the patient's private receipt page, as on the consent receipt)."),
    consentDays: z.number().int().min(1).max(365).optional().describe("How long the share lasts, 1 to 365 days; default 365."),
  })
  .meta({ id: "CreateConnectSession", description: "A Connect session to create." });
export type CreateSessionBody = z.output<typeof createSessionBodySchema>;

const category = z.enum(CATEGORIES);

export const sessionSourceSchema = z.object({
  sourceId: z.string(),
  providerId: z.string(),
  providerName: z.string(),
  status: z.enum(["pending", "syncing", "synced", "partial", "failed"]),
  recordCount: z.number().int(),
  skippedCount: z.number().int(),
  fidelity: fidelityReportSchema.nullable().describe("The latest completed import's fidelity report (what the health system's data yielded and did not); null before one completes."),
  error: z.string().nullable().describe("The last import's failure, `<code>: <message>`; null after a success."),
  errorCode: z
    .enum(["reauthorization_required", "source_unavailable"])
    .nullable()
    .describe(
      "What the failure in `error` asks of you: reauthorization_required, send the patient through Connect again (the health system refused the source's tokens; the source is not synced until they sign in); source_unavailable, nothing (a later sync may get past it). Null without a failure.",
    ),
  lastSyncedAt: z.string().nullable(),
});

export const connectSessionSchema = z
  .object({
    object: z.literal("connect_session"),
    id: z.string(),
    status: z.enum(["pending", "completed", "cancelled", "expired"]),
    environment: z.enum(["sandbox", "live"]),
    categories: z.array(category),
    grantedCategories: z.array(category).describe("What the patient agreed to share; empty until completed."),
    externalUserId: z.string().nullable(),
    connectUrl: z.string().describe("Send the patient here; valid until expiresAt."),
    redirectUrl: z.string().nullable(),
    expiresAt: z.string(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
    subject: z.string().nullable().describe("The subject (u_) once connected."),
    receiptId: z.string().nullable(),
    sources: z.array(sessionSourceSchema),
    simulation: z.object({ scenario: z.string(), state: z.string(), failureCode: z.string().nullable() }).nullable(),
  })
  .meta({ id: "ConnectSession", description: "A Connect session and the sync state of each source." });
export type ConnectSessionResource = z.output<typeof connectSessionSchema>;
