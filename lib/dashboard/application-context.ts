import { notFound } from "next/navigation";
import { cache } from "react";
import { getApplicationAccess, type ApplicationAccess } from "@/lib/team";
import { requireDeveloper, type SignedInDeveloper } from "./current-developer";

export type ApplicationContext = ApplicationAccess & { developer: SignedInDeveloper };

/**
 * The application a dashboard page works on, for the signed-in developer. An application they are not a member of
 * is "not found", exactly like one that does not exist, so ids reveal nothing.
 */
export const requireApplication = cache(async (applicationId: string): Promise<ApplicationContext> => {
  const developer = await requireDeveloper();
  const access = await getApplicationAccess(developer.id, applicationId);
  if (!access) notFound();
  return { ...access, developer };
});

/**
 * The same check for server actions, which answer instead of rendering: null when not a member; signed out, the
 * developer is sent to sign in and back. Actions take the application id from the client, so every one starts here.
 */
export async function applicationAccess(applicationId: unknown): Promise<ApplicationContext | null> {
  if (typeof applicationId !== "string") return null;
  const developer = await requireDeveloper();
  const access = await getApplicationAccess(developer.id, applicationId);
  return access ? { ...access, developer } : null;
}
