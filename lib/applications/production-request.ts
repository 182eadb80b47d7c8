import { memberActor, recordAudit } from "@/lib/audit";
import { db, withTransaction } from "@/lib/db";
import { newId } from "@/lib/ids";
import { requirePermission, TeamError, type ApplicationAccess } from "@/lib/team";
import { checkWebhookDestination } from "@/lib/webhooks";
import { productionRequestInputSchema, type ProductionRequestInput } from "./schemas";

export type ProductionRequestState = {
  id: string;
  status: "pending" | "approved" | "refused";
  description: string;
  redirectUrls: string[];
  contactEmail: string;
  decisionReason: string | null;
  decidedAt: Date | null;
  createdAt: Date;
};

const STATE_FIELDS = { id: true, status: true, description: true, redirectUrls: true, contactEmail: true, decisionReason: true, decidedAt: true, createdAt: true } as const;

/** The application's newest production request (its state on the settings page), or null when it never asked. */
export async function latestProductionRequest(applicationId: string): Promise<ProductionRequestState | null> {
  return db().productionRequest.findFirst({ where: { applicationId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: STATE_FIELDS });
}

/** A webhook URL the live rules (https, public) refuse is changed before production is asked for; none is fine. */
async function requireLiveWebhookUrl(webhookUrl: string | null): Promise<void> {
  if (!webhookUrl) return;
  const check = await checkWebhookDestination(webhookUrl, "live");
  if (!check.ok) throw new TeamError("invalid_input", `Change the webhook URL first; live webhooks refuse it: ${check.reason}.`);
}

/**
 * Asks the deployment's operators for production (owners only). Production is never switched on here: an operator
 * approves the request (lib/operators), and only then do live keys authenticate. Refused while a request is
 * pending, once production is on, for a suspended application, and while the webhook URL fails the live rules
 * (https, public), which approval would otherwise make it break; from now until a decision, the URL can only be
 * changed to one the live rules accept (`setWebhookUrl`), and approval checks it again. A refused request may be
 * followed by a new one.
 */
export async function requestProduction(access: ApplicationAccess, input: ProductionRequestInput): Promise<ProductionRequestState> {
  requirePermission(access, "production.enable");
  const data = productionRequestInputSchema.parse(input);
  const application = access.application;
  if (application.status === "suspended") throw new TeamError("invalid_input", "A suspended application cannot ask for production.");
  if (application.productionEnabled) throw new TeamError("invalid_input", "Production is already enabled for this application.");
  await requireLiveWebhookUrl(application.webhookUrl);
  return withTransaction("Serializable", async (tx) => {
    // The row locked, so a webhook URL saved at the same moment is either seen here or, saved after, checked by
    // the live rules (lib/applications/manage-application.ts reads the pending request with the same row locked).
    const [current] = await tx.$queryRaw<{ webhookUrl: string | null }[]>`SELECT "webhookUrl" FROM "Application" WHERE "id" = ${application.id} FOR UPDATE`;
    if (current && current.webhookUrl !== application.webhookUrl) await requireLiveWebhookUrl(current.webhookUrl);
    const pending = await tx.productionRequest.count({ where: { applicationId: application.id, status: "pending" } });
    if (pending > 0) throw new TeamError("invalid_input", "A production request is already waiting for an operator.");
    const request = await tx.productionRequest.create({
      data: { id: newId("preq_"), applicationId: application.id, requestedById: access.developerId, ...data },
      select: STATE_FIELDS,
    });
    await recordAudit(tx, { action: "production.request", actor: memberActor(access), applicationId: application.id, targetType: "production_request", targetId: request.id, after: { status: request.status, contactEmail: request.contactEmail, redirectUrls: request.redirectUrls } });
    return request;
  });
}
