import { z } from "zod";
import { unstorableCharacter } from "@/lib/http/schemas";

/** Every kind of entry the trail holds, in the order the Security page offers them as a filter. */
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.second_factor_failed",
  "auth.session_end",
  "auth.second_factor_add",
  "auth.second_factor_remove",
  "auth.recovery_code_use",
  "auth.recovery_codes_regenerate",
  "auth.password_reset_request",
  "auth.password_reset",
  "auth.email_verify",
  "api_key.create",
  "api_key.revoke",
  "webhook.url_change",
  "webhook.secret_rotate",
  "webhook.secret_reveal",
  "conformance.run_key_reveal",
  "team.invite",
  "team.invite_revoke",
  "team.join",
  "team.role_change",
  "team.member_remove",
  "application.allowlist_change",
  "application.sync_mode_change",
  "application.redirect_urls_change",
  "application.delete",
  "production.request",
  "production.approve",
  "production.refuse",
  "application.suspend",
  "application.reinstate",
  "agent_credential.issue",
  "agent_credential.revoke",
  "provider.create",
  "provider.update",
  "provider.disable",
  "provider.enable",
  "provider.test",
  "provider.sync_rerun",
  "source.sync_rerun",
  "deployment.secret_rotate",
  "subject.deletion_request",
  "subject.purge",
  "source.token_revocation",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTOR_TYPES = ["developer", "operator", "api_key", "anonymous", "system"] as const;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD.");

/**
 * The Security page's filters, as its URL query carries them (the page and the export route read the same query).
 * Empty fields mean "any"; the dates are whole UTC days, `to` included.
 */
export const auditFilterSchema = z.object({
  action: z.union([z.enum(AUDIT_ACTIONS), z.literal("")]).optional(),
  // Text PostgreSQL cannot store (NUL, a lone surrogate) matches no actor; left out like any field that does not parse.
  actor: z
    .string()
    .trim()
    .max(200)
    .refine((text) => unstorableCharacter(text) === null, "The actor holds a character that cannot be stored.")
    .optional(),
  from: z.union([day, z.literal("")]).optional(),
  to: z.union([day, z.literal("")]).optional(),
  actorType: z.enum(AUDIT_ACTOR_TYPES).optional(),
});

export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditExportFormatSchema = z.enum(["csv", "json"]);
