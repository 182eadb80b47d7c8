import { revalidatePath } from "next/cache";
import { actionFailure, type ActionFailure } from "./action-result";
import { applicationAccess, type ApplicationContext } from "./application-context";
import { auditedRequest } from "./audited-request";

export type ActionResult = { ok: true; message: string } | { ok: false; error: string };

/** What a dashboard server action answers when its work returns a value (a read, a created key). */
export type ActionOutcome<T> = { ok: true; value: T } | ActionFailure;

/**
 * The body of every dashboard server action on one application: the caller's access is checked first (the id comes
 * from the client), the domain function runs (it checks the role's permission itself), and refusals become words
 * for the form or toast. Reads (polling, "load more") use this alone; changes use applicationAction.
 */
export async function withApplication<T>(applicationId: unknown, work: (access: ApplicationContext) => Promise<T>): Promise<ActionOutcome<T>> {
  const access = await applicationAccess(applicationId);
  if (!access) return { ok: false, error: "Application not found." };
  try {
    return { ok: true, value: await auditedRequest(() => work(access)) };
  } catch (error) {
    return actionFailure(error);
  }
}

/** After a change: every page of the application renders again with what was saved. */
export function refreshApplicationPages(applicationId: string): void {
  revalidatePath(`/dashboard/${applicationId}`, "layout");
}

/** A change to one application: withApplication, then its pages are refreshed and the answer is a toast's words. */
export async function applicationAction<T>(
  applicationId: unknown,
  perform: (access: ApplicationContext) => Promise<T>,
  success: string | ((result: T) => string),
): Promise<ActionResult> {
  const outcome = await withApplication(applicationId, async (access) => {
    const result = await perform(access);
    refreshApplicationPages(access.application.id);
    return result;
  });
  if (!outcome.ok) return outcome;
  return { ok: true, message: typeof success === "function" ? success(outcome.value) : success };
}
