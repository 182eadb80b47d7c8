"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { UserPlus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { changeRoleAction, inviteAction, removeMemberAction, revokeInvitationAction } from "@/app/(dashboard)/dashboard/[appId]/team/actions";
import { invitationInputSchema, type InvitationInput } from "@/lib/team/schemas";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { DataTable } from "@/components/ui/data-table";
import { Field, FormAlert } from "@/components/ui/field";
import { Td } from "@/components/ui/table";

type Role = "owner" | "member";
export type MemberRow = { developerId: string; name: string; email: string; role: Role; createdAt: string; isYou: boolean };
export type InvitationRow = { id: string; email: string; role: Role; expiresAt: string; status: "pending" | "accepted" | "revoked" | "expired" };

const SELECT = "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm focus:border-teal-700 focus:outline-none focus:ring-2 focus:ring-teal-700/30";

function InviteForm({ applicationId }: { applicationId: string }) {
  const [link, setLink] = useState<{ link: string; email: string; emailed: boolean } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<InvitationInput>({ resolver: zodResolver(invitationInputSchema), defaultValues: { email: "", role: "member" } });
  const submit = form.handleSubmit(async (values) => {
    setRefusal(null);
    const result = await inviteAction(applicationId, values);
    if (!result.ok) return setRefusal(result.error);
    setLink(result);
    form.reset();
    toast.success(result.emailed ? `Invitation emailed to ${result.email}.` : `Invitation for ${result.email} created. Copy the link and send it to them.`);
  });
  return (
    <div className="space-y-4">
      <form method="post" onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field className="sm:w-80" label="Email address" type="email" placeholder="teammate@example.com" error={form.formState.errors.email?.message} {...form.register("email")} />
        <label className="text-sm font-medium text-slate-800">
          Role
          <select className={`${SELECT} mt-1 block w-full py-2`} {...form.register("role")}>
            <option value="member">Member</option>
            <option value="owner">Owner</option>
          </select>
        </label>
        <Button type="submit" pending={form.formState.isSubmitting}>
          <UserPlus aria-hidden="true" className="h-4 w-4" />
          Create invitation
        </Button>
      </form>
      <FormAlert message={refusal} />
      {link ? (
        <div role="status" className="space-y-2 rounded-md border border-teal-200 bg-teal-50 p-3">
          <p className="text-sm text-teal-900">
            {link.emailed ? "We emailed this link to " : "The email could not be sent: send this link to "}
            <strong>{link.email}</strong>. It works once, for that address, for 7 days.
          </p>
          <CodeBlock code={link.link} what="Invitation link" />
        </div>
      ) : null}
    </div>
  );
}

type TeamPanelProps = { applicationId: string; members: MemberRow[]; invitations: InvitationRow[]; canManage: boolean };

/** Members with their roles, invitations, and (for owners) the controls to change them. */
export function TeamPanel({ applicationId, members, invitations, canManage }: TeamPanelProps) {
  async function changeRole(developerId: string, role: Role) {
    const result = await changeRoleAction(applicationId, { developerId, role });
    if (result.ok) toast.success(result.message);
    else toast.error(result.error);
  }
  const pending = invitations.filter((invitation) => invitation.status === "pending");
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Members" description="Owners manage the team, production, live keys and the webhook signing secret. Members build with everything else." />
        <CardBody>
          <DataTable caption="Members" columns={["Name", "Email", "Role", "Joined", { label: "Actions", visuallyHidden: true }]} rows={members}>
            {(member) => (
              <tr key={member.developerId} aria-label={member.email}>
                <Td className="font-medium">
                  {member.name} {member.isYou ? <Badge>You</Badge> : null}
                </Td>
                <Td>{member.email}</Td>
                <Td>
                  {canManage ? (
                    <select
                      aria-label={`Role of ${member.email}`}
                      className={SELECT}
                      defaultValue={member.role}
                      onChange={(event) => void changeRole(member.developerId, event.target.value as Role)}
                    >
                      <option value="owner">Owner</option>
                      <option value="member">Member</option>
                    </select>
                  ) : (
                    <Badge tone={member.role === "owner" ? "success" : "neutral"}>{member.role === "owner" ? "Owner" : "Member"}</Badge>
                  )}
                </Td>
                <Td className="whitespace-nowrap">{member.createdAt.slice(0, 10)}</Td>
                <Td className="text-right">
                  {canManage || member.isYou ? (
                    <ConfirmAction
                      label={member.isYou ? "Leave" : "Remove"}
                      title={member.isYou ? "Leave this application?" : `Remove ${member.email}?`}
                      description={<p>{member.isYou ? "You lose access at once; an owner can invite you again." : "They lose access at once. Keys they created keep working until revoked."}</p>}
                      confirmLabel={member.isYou ? "Leave" : "Remove member"}
                      action={() => removeMemberAction(applicationId, member.developerId)}
                    />
                  ) : null}
                </Td>
              </tr>
            )}
          </DataTable>
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Invite a developer" description="An invitation is a link for one email address. They sign in (or sign up) with that address to accept it." />
        <CardBody className="space-y-6">
          {canManage ? <InviteForm applicationId={applicationId} /> : <p className="text-sm text-slate-600">Only owners invite developers.</p>}
          {pending.length > 0 ? (
            <DataTable caption="Pending invitations" columns={["Email", "Role", "Expires", { label: "Actions", visuallyHidden: true }]} rows={pending}>
              {(invitation) => (
                <tr key={invitation.id} aria-label={`Invitation for ${invitation.email}`}>
                  <Td>{invitation.email}</Td>
                  <Td>{invitation.role === "owner" ? "Owner" : "Member"}</Td>
                  <Td className="whitespace-nowrap">{invitation.expiresAt.slice(0, 16).replace("T", " ")} UTC</Td>
                  <Td className="text-right">
                    {canManage ? (
                      <ConfirmAction
                        label="Revoke"
                        title={`Revoke the invitation for ${invitation.email}?`}
                        description={<p>The link stops working. You can invite them again later.</p>}
                        confirmLabel="Revoke invitation"
                        action={() => revokeInvitationAction(applicationId, invitation.id)}
                      />
                    ) : null}
                  </Td>
                </tr>
              )}
            </DataTable>
          ) : (
            <p className="text-sm text-slate-600">No pending invitations.</p>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
