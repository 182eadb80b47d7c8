"use server";

import { redirect } from "next/navigation";
import { applicationAction, dashboardOrigin } from "@/lib/dashboard";
import { changeMemberRole, createInvitation, removeMember, requirePermission, revokeInvitation, type ApplicationRole } from "@/lib/team";

export type InvitationLink = { ok: true; link: string; email: string } | { ok: false; error: string };

export async function inviteAction(applicationId: string, input: { email: string; role: ApplicationRole }): Promise<InvitationLink> {
  let path = "";
  const result = await applicationAction(
    applicationId,
    async (access) => {
      requirePermission(access, "team.manage");
      path = (await createInvitation({ applicationId: access.application.id, invitedById: access.developerId, email: input.email, role: input.role })).path;
    },
    "Invitation created.",
  );
  if (!result.ok) return result;
  return { ok: true, link: `${await dashboardOrigin()}${path}`, email: input.email.trim().toLowerCase() };
}

export async function revokeInvitationAction(applicationId: string, invitationId: string) {
  return applicationAction(applicationId, (access) => revokeInvitation(access, invitationId), "Invitation revoked: its link no longer works.");
}

export async function changeRoleAction(applicationId: string, input: { developerId: string; role: ApplicationRole }) {
  return applicationAction(applicationId, (access) => changeMemberRole(access, input), `Role changed to ${input.role}.`);
}

export async function removeMemberAction(applicationId: string, developerId: string) {
  let left = false;
  const result = await applicationAction(
    applicationId,
    async (access) => {
      left = developerId === access.developerId;
      await removeMember(access, developerId);
    },
    "Member removed. They lose access at once.",
  );
  if (result.ok && left) redirect("/dashboard");
  return result;
}
