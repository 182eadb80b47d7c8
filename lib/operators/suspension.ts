import { db, withTransaction } from "@/lib/db";
import { NotFoundError, TeamError } from "@/lib/team";
import { recordAudit } from "@/lib/audit";
import { operatorActor, requireOperator } from "./operator-role";
import { suspendApplicationInputSchema } from "./schemas";

/**
 * Suspends an application (operators only): every key, sandbox and live, answers 403 `app_suspended` from its next
 * request on every instance (the Application trigger drops cached keys), its agent credentials are revoked and its
 * open conformance runs are cancelled with their run keys revoked. The reason is recorded for the developer.
 */
export async function suspendApplication(operatorId: string, applicationId: string, input: { reason: string }): Promise<void> {
  const operator = await requireOperator(operatorId);
  const { reason } = suspendApplicationInputSchema.parse(input);
  await withTransaction("ReadCommitted", async (tx) => {
    const application = await tx.application.findUnique({ where: { id: applicationId }, select: { id: true, status: true } });
    if (!application) throw new NotFoundError("The application");
    if (application.status === "suspended") throw new TeamError("invalid_input", "The application is already suspended.");
    const now = new Date();
    await tx.application.update({ where: { id: applicationId }, data: { status: "suspended" } });
    await tx.agentCredential.updateMany({ where: { applicationId, revokedAt: null }, data: { revokedAt: now } });
    const runs = await tx.conformanceRun.findMany({ where: { applicationId, status: { in: ["creating", "open"] } }, select: { id: true } });
    if (runs.length > 0) {
      const ids = runs.map((run) => run.id);
      await tx.conformanceRun.updateMany({ where: { id: { in: ids } }, data: { status: "cancelled", endedAt: now } });
      await tx.apiKey.updateMany({ where: { conformanceRunId: { in: ids }, revokedAt: null }, data: { revokedAt: now } });
    }
    await recordAudit(tx, { action: "application.suspend", actor: operatorActor(operator), applicationId, targetType: "application", targetId: applicationId, before: { status: application.status }, after: { status: "suspended", reason } });
  });
}

/**
 * Lifts a suspension: the application returns to `active` when production was approved, to `sandbox` otherwise.
 * Revoked credentials and cancelled runs stay so; the developer creates new ones.
 */
export async function reinstateApplication(operatorId: string, applicationId: string): Promise<void> {
  const operator = await requireOperator(operatorId);
  await withTransaction("ReadCommitted", async (tx) => {
    const application = await tx.application.findUnique({ where: { id: applicationId }, select: { status: true, productionEnabled: true } });
    if (!application) throw new NotFoundError("The application");
    if (application.status !== "suspended") throw new TeamError("invalid_input", "The application is not suspended.");
    const status = application.productionEnabled ? "active" : "sandbox";
    await tx.application.update({ where: { id: applicationId }, data: { status } });
    await recordAudit(tx, { action: "application.reinstate", actor: operatorActor(operator), applicationId, targetType: "application", targetId: applicationId, before: { status: "suspended" }, after: { status } });
  });
}

/** Why the application was suspended, for its developers (the newest suspension's reason), or null. */
export async function suspensionReason(applicationId: string): Promise<string | null> {
  const entry = await db().auditEntry.findFirst({
    where: { targetType: "application", targetId: applicationId, action: "application.suspend" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { after: true },
  });
  const reason = (entry?.after as { reason?: unknown } | null | undefined)?.reason;
  return typeof reason === "string" ? reason : null;
}
