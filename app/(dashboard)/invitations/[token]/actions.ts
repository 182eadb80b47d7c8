"use server";

import { redirect } from "next/navigation";
import { actionFailure, auditedRequest, requireDeveloper } from "@/lib/dashboard";
import { acceptInvitation } from "@/lib/team";

export async function acceptInvitationAction(token: string): Promise<{ error: string }> {
  const developer = await requireDeveloper();
  let applicationId: string;
  try {
    applicationId = (await auditedRequest(() => acceptInvitation({ token, developerId: developer.id }))).applicationId;
  } catch (error) {
    return { error: actionFailure(error).error };
  }
  redirect(`/dashboard/${applicationId}?joined=1`);
}
