import type { Metadata } from "next";
import { TeamPanel } from "@/components/dashboard/team/team-panel";
import { PageHeader } from "@/components/ui/page-header";
import { requireApplication } from "@/lib/dashboard";
import { can, listInvitations, listMembers } from "@/lib/team";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const access = await requireApplication(appId);
  const [members, invitations] = await Promise.all([listMembers(access.application.id), listInvitations(access.application.id)]);
  return (
    <div className="space-y-6">
      <PageHeader title="Team" description="Who works on this application, and what each of them may do." />
      <TeamPanel
        applicationId={access.application.id}
        canManage={can(access.role, "team.manage")}
        members={members.map((member) => ({
          developerId: member.developerId,
          name: member.name,
          email: member.email,
          role: member.role,
          createdAt: member.createdAt.toISOString(),
          isYou: member.developerId === access.developerId,
        }))}
        invitations={invitations.map((invitation) => ({
          id: invitation.id,
          email: invitation.email,
          role: invitation.role,
          expiresAt: invitation.expiresAt.toISOString(),
          status: invitation.status,
        }))}
      />
    </div>
  );
}
