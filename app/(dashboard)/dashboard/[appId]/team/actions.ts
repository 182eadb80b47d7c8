"use server";

import { redirect } from "next/navigation";
import { requireVerifiedEmail } from "@/lib/accounts";
import { applicationAction, dashboardOrigin, refreshApplicationPages, withApplication, type ActionFailure } from "@/lib/dashboard";
import { changeMemberRole, createInvitation, removeMember, requirePermission, revokeInvitation, sendInvitationEmail, type ApplicationRole } from "@/lib/team";

export type InvitationLink = { ok: true; link: string; email: string; emailed: boolean } | ActionFailure;

export async function inviteAction(applicationId: string, input: { email: string; role: ApplicationRole }): Promise<InvitationLink> {
  const outcome = await withApplication(applicationId, async (access) => {
    requirePermission(access, "team.manage");
    // Inviting only from an account whose address is confirmed (issue 57).
    await requireVerifiedEmail(access.developerId);
    const created = await createInvitation({ applicationId: access.application.id, invitedById: access.developerId, email: input.email, role: input.role });
    refreshApplicationPages(access.application.id);
    return created;
  });
  if (!outcome.ok) return outcome;
  const origin = await dashboardOrigin();
  const emailed = await sendInvitationEmail({ invitation: outcome.value.invitation, token: outcome.value.token, origin });
  return { ok: true, link: `${origin}${outcome.value.path}`, email: outcome.value.invitation.email, emailed };
}

export async function revokeInvitationAction(applicationId: string, invitationId: string) {
  return applicationAction(applicationId, (access) => revokeInvitation(access, invitationId), "Invitation revoked: its link no longer works.");
}

export async function changeRoleAction(applicationId: string, input: { developerId: string; role: ApplicationRole }) {
  return applicationAction(applicationId, (access) => changeMemberRole(access, input), `Role changed to ${input.role}.`);
}

export async function removeMemberAction(applicationId: string, developerId: string) {
  const outcome = await withApplication(applicationId, async (access) => {
    await removeMember(access, developerId);
    refreshApplicationPages(access.application.id);
    return developerId === access.developerId;
  });
  if (!outcome.ok) return outcome;
  // Leaving takes the developer out of the application, so its pages are no longer theirs to see.
  if (outcome.value) redirect("/dashboard");
  return { ok: true as const, message: "Member removed. They lose access at once." };
}
