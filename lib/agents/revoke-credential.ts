import type { KeyAuth } from "@/lib/auth";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { presentCredential } from "./present-credential";
import type { AgentCredentialResource } from "./schemas";

/** Revokes a credential of the application and environment (once: a second revocation keeps the first time). */
export async function revokeCredential(scope: { applicationId: string; environment: "sandbox" | "live" }, credentialId: string, now = new Date()): Promise<AgentCredentialResource> {
  const where = { id: credentialId, applicationId: scope.applicationId, environment: scope.environment };
  await db().agentCredential.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: now } });
  const row = await db().agentCredential.findFirst({ where });
  if (!row) throw new ApiError("not_found", `No delegated credential ${credentialId} for this application.`);
  return presentCredential(row);
}

/** DELETE /agent-credentials/{credentialId} with the calling key's application and environment. */
export function revokeKeyCredential(key: KeyAuth, credentialId: string): Promise<AgentCredentialResource> {
  return revokeCredential({ applicationId: key.application.id, environment: key.environment }, credentialId);
}
