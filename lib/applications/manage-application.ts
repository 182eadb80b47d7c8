import { memberActor, recordAudit, type AuditAction } from "@/lib/audit";
import { db, withTransaction, type Tx } from "@/lib/db";
import { ACCESSIBLE_APPLICATION_FIELDS, getApplicationAccess, requirePermission, TeamError, type AccessibleApplication, type ApplicationAccess } from "@/lib/team";
import { checkWebhookDestination, NOT_PUBLIC } from "@/lib/webhooks";
import { createApplication } from "./create-application";
import {
  categoryAllowlistInputSchema,
  createApplicationInputSchema,
  redirectUrlsInputSchema,
  renameApplicationInputSchema,
  syncModeInputSchema,
  webhookUrlInputSchema,
  type CreateApplicationInput,
} from "./schemas";

// Every function here takes the caller's access (lib/team getApplicationAccess) and checks its permission itself,
// so a page that forgot to check still cannot act beyond the caller's role. Each returns the application as saved.

/** A new sandbox application; its creator is its owner. */
export async function createApplicationFor(developerId: string, input: CreateApplicationInput): Promise<ApplicationAccess> {
  const { name } = createApplicationInputSchema.parse(input);
  const application = await createApplication({ developerId, name });
  const access = await getApplicationAccess(developerId, application.id);
  if (!access) throw new Error("the new application has no owner");
  return access;
}

type Settings = { name?: string; categoryAllowlist?: string[]; syncMode?: "one_time" | "continuous"; redirectUrls?: string[]; webhookUrl?: string | null };

/** The settings whose changes are security-relevant, and the audit action each is recorded as. */
const AUDITED: Partial<Record<keyof Settings, AuditAction>> = {
  categoryAllowlist: "application.allowlist_change",
  syncMode: "application.sync_mode_change",
  redirectUrls: "application.redirect_urls_change",
  webhookUrl: "webhook.url_change",
};

/**
 * Saves one setting; a change to an audited one is recorded, with the value it replaced, in the same transaction.
 * `guard` runs first with the application's row locked, and may refuse the change.
 */
function update(access: ApplicationAccess, data: Settings, guard?: (tx: Tx) => Promise<void>): Promise<AccessibleApplication> {
  const id = access.application.id;
  return withTransaction("ReadCommitted", async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Application" WHERE "id" = ${id} FOR UPDATE`;
    await guard?.(tx);
    const before = await tx.application.findUniqueOrThrow({ where: { id }, select: ACCESSIBLE_APPLICATION_FIELDS });
    const saved = await tx.application.update({ where: { id }, data, select: ACCESSIBLE_APPLICATION_FIELDS });
    for (const field of Object.keys(data) as Array<keyof Settings>) {
      const action = AUDITED[field];
      if (action && JSON.stringify(before[field]) !== JSON.stringify(saved[field])) {
        await recordAudit(tx, { action, actor: memberActor(access), applicationId: id, targetType: "application", targetId: id, before: { [field]: before[field] }, after: { [field]: saved[field] } });
      }
    }
    return saved;
  });
}

export async function renameApplication(access: ApplicationAccess, input: { name: string }): Promise<AccessibleApplication> {
  requirePermission(access, "application.manage");
  return update(access, renameApplicationInputSchema.parse(input));
}

/** Sets the categories the application may request (at least one; stored in category order). */
export async function updateCategoryAllowlist(access: ApplicationAccess, input: { categories: string[] }): Promise<AccessibleApplication> {
  requirePermission(access, "application.manage");
  return update(access, { categoryAllowlist: categoryAllowlistInputSchema.parse(input).categories });
}

/** `one-time` or `continuous` (the spec's spelling). */
export async function setSyncMode(access: ApplicationAccess, input: { syncMode: "one-time" | "continuous" }): Promise<AccessibleApplication> {
  requirePermission(access, "application.manage");
  const { syncMode } = syncModeInputSchema.parse(input);
  return update(access, { syncMode: syncMode === "one-time" ? "one_time" : "continuous" });
}

/** The redirect URLs Connect may return to (exact match; the sandbox also accepts any http://localhost URL). */
export async function setRedirectUrls(access: ApplicationAccess, input: { redirectUrls: string[] }): Promise<AccessibleApplication> {
  requirePermission(access, "application.manage");
  return update(access, redirectUrlsInputSchema.parse(input));
}

type WebhookRules = "sandbox" | "live";

/**
 * The rules a saved webhook URL must satisfy: the live ones (https, public) once production is enabled, and from
 * the moment it is asked for, so a URL the live rules refuse cannot be set while an operator reviews the request
 * (who would otherwise approve the application into deliveries that all fail).
 */
async function webhookRules(client: Tx | ReturnType<typeof db>, applicationId: string): Promise<{ rules: WebhookRules; requested: boolean }> {
  const [application, pending] = await Promise.all([
    client.application.findUniqueOrThrow({ where: { id: applicationId }, select: { productionEnabled: true } }),
    client.productionRequest.count({ where: { applicationId, status: "pending" } }),
  ]);
  return { rules: application.productionEnabled || pending > 0 ? "live" : "sandbox", requested: !application.productionEnabled && pending > 0 };
}

/** Throws the developer's words for a URL the rules refuse (the delivery's own check, `checkWebhookDestination`). */
async function requireAllowedWebhookUrl(webhookUrl: string, { rules, requested }: { rules: WebhookRules; requested: boolean }): Promise<void> {
  const check = await checkWebhookDestination(webhookUrl, rules);
  if (check.ok) return;
  const hint = check.reason === NOT_PUBLIC ? " Use a public URL (a tunnel can forward it to a receiver on your machine)." : "";
  const why = requested ? " Production has been requested, so the live rules apply: https, on a public host." : "";
  throw new TeamError("invalid_input", `The webhook URL is not allowed: ${check.reason}.${why}${hint}`);
}

/**
 * Sets (or clears, with null) the webhook URL. Checked with the delivery's own rules (`checkWebhookDestination`,
 * which also resolves the name now): http(s) for a sandbox application, https once production is requested or
 * enabled, and a public address (the sandbox may use local receivers only where the deployment opts in). The name
 * is resolved before the transaction; with the application's row locked, the rules are read again, and a URL
 * checked as a sandbox one is checked again by the live rules if production was asked for meanwhile.
 */
export async function setWebhookUrl(access: ApplicationAccess, input: { webhookUrl: string | null }): Promise<AccessibleApplication> {
  requirePermission(access, "application.manage");
  const { webhookUrl } = webhookUrlInputSchema.parse(input);
  const id = access.application.id;
  if (!webhookUrl) return update(access, { webhookUrl: null });
  const checked = await webhookRules(db(), id);
  await requireAllowedWebhookUrl(webhookUrl, checked);
  return update(access, { webhookUrl }, async (tx) => {
    const now = await webhookRules(tx, id);
    if (now.rules !== checked.rules) await requireAllowedWebhookUrl(webhookUrl, now);
  });
}

/**
 * Deletes the application (owners only) with everything that belongs to it: keys, subjects, records, sessions,
 * receipts, events, deliveries, runs (foreign-key cascades) and its request log rows, in one transaction. Its keys
 * stop working at once (the key-change trigger fires for each deleted key).
 */
export async function deleteApplication(access: ApplicationAccess): Promise<void> {
  requirePermission(access, "application.delete");
  const id = access.application.id;
  await withTransaction("ReadCommitted", async (tx) => {
    await recordAudit(tx, { action: "application.delete", actor: memberActor(access), applicationId: id, targetType: "application", targetId: id, before: { name: access.application.name, status: access.application.status } });
    await tx.requestLog.deleteMany({ where: { applicationId: id } });
    await tx.application.delete({ where: { id } });
  });
}
