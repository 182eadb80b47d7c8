import { recordAudit, type AuditActor } from "@/lib/audit";
import type { KeyAuth } from "@/lib/auth";
import { withTransaction } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { presentCredential } from "./present-credential";
import type { AgentCredentialResource } from "./schemas";

/** Revokes a credential of the application and environment (once: a second revocation keeps the first time). */
export async function revokeCredential(
  scope: { applicationId: string; environment: "sandbox" | "live" },
  credentialId: string,
  actor: AuditActor,
  now = new Date(),
): Promise<AgentCredentialResource> {
  const where = { id: credentialId, applicationId: scope.applicationId, environment: scope.environment };
  const row = await withTransaction("ReadCommitted", async (tx) => {
    const { count } = await tx.agentCredential.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: now } });
    if (count > 0) await recordAudit(tx, { action: "agent_credential.revoke", actor, applicationId: scope.applicationId, targetType: "agent_credential", targetId: credentialId, before: { revokedAt: null }, after: { revokedAt: now } });
    return tx.agentCredential.findFirst({ where });
  });
  if (!row) throw new ApiError("not_found", `No delegated credential ${credentialId} for this application.`);
  return presentCredential(row);
}

/** DELETE /agent-credentials/{credentialId} with the calling key's application and environment. */
export function revokeAgentCredential(key: KeyAuth, credentialId: string): Promise<AgentCredentialResource> {
  return revokeCredential({ applicationId: key.application.id, environment: key.environment }, credentialId, { type: "api_key", id: key.apiKeyId });
}
