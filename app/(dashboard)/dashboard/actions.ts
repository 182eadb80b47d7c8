"use server";

import { redirect } from "next/navigation";
import { createApplicationFor, type CreateApplicationInput } from "@/lib/applications";
import { actionFailure, requireDeveloper } from "@/lib/dashboard";

/** Creates a sandbox application owned by the signed-in developer and opens it. */
export async function createApplicationAction(input: CreateApplicationInput): Promise<{ error: string } | undefined> {
  const developer = await requireDeveloper();
  let applicationId: string;
  try {
    applicationId = (await createApplicationFor(developer.id, input)).application.id;
  } catch (error) {
    return { error: actionFailure(error).error };
  }
  redirect(`/dashboard/${applicationId}`);
}
