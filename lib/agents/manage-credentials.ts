import { memberActor } from "@/lib/audit";
import { db } from "@/lib/db";
import { keyPermission, NotFoundError, requirePermission, type ApplicationAccess } from "@/lib/team";
import { presentCredential } from "./present-credential";
import { revokeCredential } from "./revoke-credential";
import type { AgentCredentialResource } from "./schemas";

export type ActiveCredential = AgentCredentialResource & { environment: "sandbox" | "live"; keyName: string; keyPrefix: string };

/**
 * A subject's credentials whose authority holds now (unrevoked, unexpired, parent key live, receipt active), newest
 * first, with the key that issued each: what the dashboard's subject page lists and can revoke.
 */
export async function activeCredentials(access: ApplicationAccess, subjectId: string, now = new Date()): Promise<ActiveCredential[]> {
  requirePermission(access, "application.read");
  const rows = await db().agentCredential.findMany({
    where: {
      applicationId: access.application.id,
      subjectId,
      revokedAt: null,
      expiresAt: { gt: now },
      parentKey: { revokedAt: null },
      receipt: { status: "active", expiresAt: { gt: now } },
    },
    include: { parentKey: { select: { name: true, displayPrefix: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map((row) => ({ ...presentCredential(row), environment: row.environment, keyName: row.parentKey.name, keyPrefix: row.parentKey.displayPrefix }));
}

/** Revokes a credential from the dashboard, with the permission revoking its parent key's kind needs. */
export async function revokeCredentialFor(access: ApplicationAccess, credentialId: string): Promise<AgentCredentialResource> {
  const credential = await db().agentCredential.findFirst({ where: { id: credentialId, applicationId: access.application.id }, select: { environment: true } });
  if (!credential) throw new NotFoundError("The credential");
  requirePermission(access, keyPermission(credential.environment));
  return revokeCredential({ applicationId: access.application.id, environment: credential.environment }, credentialId, memberActor(access));
}
