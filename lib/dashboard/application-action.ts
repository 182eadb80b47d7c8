import { revalidatePath } from "next/cache";
import { actionFailure } from "./action-result";
import { applicationAccess, type ApplicationContext } from "./application-context";

export type ActionResult = { ok: true; message: string } | { ok: false; error: string };

/**
 * The body of a dashboard server action on one application: the caller's access is checked first (the id comes from
 * the client), the domain function runs (it checks the role's permission itself), the application's pages are
 * refreshed, and the answer is a toast's worth of words either way.
 */
export async function applicationAction(
  applicationId: unknown,
  perform: (access: ApplicationContext) => Promise<unknown>,
  success: string | ((result: unknown) => string),
): Promise<ActionResult> {
  const access = await applicationAccess(applicationId);
  if (!access) return { ok: false, error: "Application not found." };
  try {
    const result = await perform(access);
    revalidatePath(`/dashboard/${access.application.id}`, "layout");
    return { ok: true, message: typeof success === "function" ? success(result) : success };
  } catch (error) {
    return actionFailure(error);
  }
}
