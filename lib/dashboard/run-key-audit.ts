import { memberActor, recordAudit } from "@/lib/audit";
import { db } from "@/lib/db";

/**
 * A conformance run's key is shown once, as the run starts: who was shown it, and from where, is on the audit trail
 * (`conformance.run_key_reveal`, the key itself never), as a revealed signing secret is.
 */
export async function auditRunKeyReveal(access: { developerId: string; application: { id: string } }, runId: string): Promise<void> {
  await recordAudit(db(), { action: "conformance.run_key_reveal", actor: memberActor(access), applicationId: access.application.id, targetType: "conformance_run", targetId: runId });
}
