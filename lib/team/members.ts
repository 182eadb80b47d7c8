import { memberActor, recordAudit } from "@/lib/audit";
import { db, withTransaction, type Tx } from "@/lib/db";
import type { ApplicationAccess } from "./access";
import { NotFoundError, TeamError } from "./errors";
import { requirePermission, type ApplicationRole } from "./permissions";
import { changeRoleInputSchema } from "./schemas";

export type Member = { developerId: string; email: string; name: string; role: ApplicationRole; createdAt: Date; isCreator: boolean };

/** The application's members, owners first, then by joining time. */
export async function listMembers(applicationId: string): Promise<Member[]> {
  const rows = await db().applicationMember.findMany({
    where: { applicationId },
    select: { developerId: true, role: true, createdAt: true, developer: { select: { email: true, name: true } }, application: { select: { developerId: true } } },
    orderBy: [{ role: "asc" }, { createdAt: "asc" }],
  });
  return rows.map((row) => ({
    developerId: row.developerId,
    email: row.developer.email,
    name: row.developer.name,
    role: row.role,
    createdAt: row.createdAt,
    isCreator: row.application.developerId === row.developerId,
  }));
}

/**
 * Locks the application's member rows and throws `last_owner` if taking `developerId` out of the owners would
 * leave none. The lock makes two owners demoting each other at once fail one of them rather than both succeed.
 */
async function assertAnotherOwner(tx: Tx, applicationId: string, developerId: string): Promise<void> {
  const owners = await tx.$queryRaw<Array<{ developerId: string }>>`
    SELECT "developerId" FROM "ApplicationMember" WHERE "applicationId" = ${applicationId} AND "role" = 'owner' FOR UPDATE`;
  if (!owners.some((owner) => owner.developerId !== developerId)) {
    throw new TeamError("last_owner", "An application needs at least one owner: make someone else an owner first.");
  }
}

async function lockedMember(tx: Tx, applicationId: string, developerId: string): Promise<{ role: ApplicationRole }> {
  const member = await tx.applicationMember.findUnique({ where: { applicationId_developerId: { applicationId, developerId } }, select: { role: true } });
  if (!member) throw new NotFoundError("The member");
  return member;
}

/** Changes a member's role (owners only); the last owner cannot be demoted. */
export async function changeMemberRole(access: ApplicationAccess, input: { developerId: string; role: ApplicationRole }): Promise<void> {
  requirePermission(access, "team.manage");
  const { developerId, role } = changeRoleInputSchema.parse(input);
  const applicationId = access.application.id;
  await withTransaction("ReadCommitted", async (tx) => {
    const member = await lockedMember(tx, applicationId, developerId);
    if (member.role === role) return;
    if (member.role === "owner") await assertAnotherOwner(tx, applicationId, developerId);
    await tx.applicationMember.update({ where: { applicationId_developerId: { applicationId, developerId } }, data: { role } });
    await recordAudit(tx, { action: "team.role_change", actor: memberActor(access), applicationId, targetType: "developer", targetId: developerId, before: { role: member.role }, after: { role } });
  });
}

/**
 * Removes a member: owners may remove anyone, a member may remove only themselves (leave). The last owner cannot
 * be removed.
 */
export async function removeMember(access: ApplicationAccess, developerId: string): Promise<void> {
  if (developerId !== access.developerId) requirePermission(access, "team.manage");
  const applicationId = access.application.id;
  await withTransaction("ReadCommitted", async (tx) => {
    const member = await lockedMember(tx, applicationId, developerId);
    if (member.role === "owner") await assertAnotherOwner(tx, applicationId, developerId);
    await tx.applicationMember.delete({ where: { applicationId_developerId: { applicationId, developerId } } });
    await recordAudit(tx, { action: "team.member_remove", actor: memberActor(access), applicationId, targetType: "developer", targetId: developerId, before: { role: member.role }, after: null });
  });
}
