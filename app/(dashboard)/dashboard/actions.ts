"use server";

import { redirect } from "next/navigation";
import { createApplication } from "@/lib/applications";
import { requireDeveloper } from "@/lib/dashboard";
import { applicationNameSchema, type ApplicationNameInput } from "@/lib/session";

/** Creates a sandbox application owned by the signed-in developer and opens it. */
export async function createApplicationAction(input: ApplicationNameInput): Promise<{ error: string } | undefined> {
  const developer = await requireDeveloper();
  const parsed = applicationNameSchema.safeParse(input);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Check the name." };
  const application = await createApplication({ developerId: developer.id, name: parsed.data.name });
  redirect(`/dashboard/${application.id}`);
}
