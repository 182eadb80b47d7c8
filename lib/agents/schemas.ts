import { z } from "zod";
import { AGENT_OPERATIONS } from "@/lib/auth/schemas";
import type { ErrorCode } from "@/lib/http";
import { addApiIssue } from "@/lib/http/schemas";
import { CATEGORIES } from "@/lib/records/schemas";

const PURPOSE_MAX_LENGTH = 500;
const MAX_DURATION_SECONDS = 3600;

/** A field whose every failure is answered with one error code (the spec names one per field), documented as `schema`. */
function answeredAs<S extends z.ZodType>(schema: S, apiCode: ErrorCode, message: string) {
  return z.preprocess((value, ctx) => {
    if (schema.safeParse(value).success) return value;
    addApiIssue(ctx, apiCode, message);
    return z.NEVER;
  }, schema);
}

export const issueCredentialBodySchema = z
  .strictObject({
    subject: z.string().min(1).describe("The subject (u_) the credential reads; it must share records with the application now.").meta({ example: "u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd" }),
    categories: answeredAs(
      z.array(z.string()).min(1),
      "invalid_grant",
      "categories must name at least one category the subject's receipt and the application's allowlist cover.",
    )
      .describe(`What the credential may read: a non-empty subset of the subject's receipt and the application's allowlist (${CATEGORIES.join(", ")}).`)
      .meta({ example: ["medications", "labs"] }),
    purpose: answeredAs(
      z.string().trim().min(1).max(PURPOSE_MAX_LENGTH),
      "invalid_grant",
      `purpose must say why the agent reads, in 1 to ${PURPOSE_MAX_LENGTH} characters (not blank).`,
    )
      .describe(`Why the agent reads: shown in the request log and the dashboard (1 to ${PURPOSE_MAX_LENGTH} characters, not blank).`)
      .meta({ example: "Summarize current medications before the 3pm telehealth visit" }),
    durationSeconds: answeredAs(
      z.number().int().min(1).max(MAX_DURATION_SECONDS),
      "invalid_duration",
      `durationSeconds must be a whole number from 1 to ${MAX_DURATION_SECONDS}.`,
    )
      .describe(`How long the credential lives, 1 to ${MAX_DURATION_SECONDS} seconds; never past the subject's receipt or the parent key.`)
      .meta({ example: 900 }),
    operations: answeredAs(
      z.array(z.enum(AGENT_OPERATIONS)).min(1),
      "invalid_grant",
      `operations must be a non-empty list of: ${AGENT_OPERATIONS.join(", ")}.`,
    )
      .optional()
      .describe(`The operations it may call, named after their MCP tools: ${AGENT_OPERATIONS.join(", ")}. All four when omitted.`)
      .meta({ example: ["get_health_record", "get_category_records"] }),
  })
  .meta({ id: "IssueAgentCredential", description: "A delegated credential to issue." });
export type IssueCredentialBody = z.output<typeof issueCredentialBodySchema>;

const category = z.enum(CATEGORIES);

export const agentCredentialSchema = z
  .object({
    object: z.literal("agent_credential"),
    id: z.string().describe("The credential id (cred_)."),
    subject: z.string(),
    receiptId: z.string().describe("The receipt it reads under; its end ends the credential."),
    categories: z.array(category),
    operations: z.array(z.enum(AGENT_OPERATIONS)),
    purpose: z.string(),
    expiresAt: z.string(),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: "AgentCredential", description: "A delegated credential: one subject, some categories, some reads, for a short time." });
export type AgentCredentialResource = z.output<typeof agentCredentialSchema>;

export const issuedCredentialSchema = agentCredentialSchema
  .extend({
    token: z
      .string()
      .optional()
      .describe("The credential's bearer token (ck_agent_...), shown only in this answer; an idempotent replay omits it."),
  })
  .meta({ id: "IssuedAgentCredential", description: "A new delegated credential and, once, its token." });

