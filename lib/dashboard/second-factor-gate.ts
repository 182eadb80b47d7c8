import { redirect } from "next/navigation";
import { mustGiveSecondFactor, secondFactorStanding, stepUpFresh } from "@/lib/account-security";
import { can, type Permission } from "@/lib/team";
import { applicationAccess } from "./application-context";
import { findOperator } from "@/lib/operators";
import { currentDeveloper, refererPath, requireSignIn, type SignedInDeveloper } from "./current-developer";

/** The page that explains why an account must enrol a second factor and walks it through (the Security page). */
export const ENROL_PATH = "/dashboard/account/security";
/** The page that asks for the second factor again before a sensitive action (step-up). */
export const STEP_UP_PATH = "/dashboard/account/confirm";

function withNext(path: string, next: string | null, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...extra, ...(next ? { next } : {}) });
  return query.size > 0 ? `${path}?${query}` : path;
}

/**
 * For pages and actions that reach live keys, secrets or operator powers: an account that must have a second factor
 * (an operator, a member of an application with production enabled or requested, everyone under
 * CHARTKEY_REQUIRE_SECOND_FACTOR=all) and has none is sent to enrol first, then back. `here` is the page's own path
 * (a page); a server action passes nothing and its caller's page (the Referer) is used.
 */
export async function requireEnrolment(here?: string): Promise<SignedInDeveloper> {
  const { developer } = await requireSignIn();
  const standing = await secondFactorStanding(developer.id);
  if (standing.reason !== null && !standing.enrolled) redirect(withNext(ENROL_PATH, here ?? (await refererPath()), { required: standing.reason }));
  return developer;
}

/**
 * For the sensitive actions (revealing or rotating the signing secret, a live key, approving production, suspending
 * an application, the providers' credentials, removing a factor): an account that gives a second factor must have
 * given it in this session within the last STEP_UP_MINUTES (5) minutes, else it is sent to give it again and back
 * to the page it was on (the action did nothing; it is tried again there). Accounts that need no factor and have
 * none (sandbox-only) go on. Replayed without it, an action changes nothing.
 */
export async function requireStepUp(here?: string): Promise<SignedInDeveloper> {
  const { developer, session } = await requireSignIn();
  const standing = await secondFactorStanding(developer.id);
  if (!mustGiveSecondFactor(standing)) return developer;
  const back = here ?? (await refererPath());
  if (!standing.enrolled) redirect(withNext(ENROL_PATH, back, { required: standing.reason ?? "deployment" }));
  if (!stepUpFresh(session.secondFactorAt)) redirect(withNext(STEP_UP_PATH, back));
  return developer;
}

/**
 * Step-up for a sensitive action on one application, asked only of a caller who may do it: another team's developer
 * is still told the application is not found and a member that the role does not allow, by the action itself.
 */
export async function requireStepUpFor(applicationId: unknown, permission: Permission): Promise<void> {
  const access = await applicationAccess(applicationId);
  if (access && can(access.role, permission)) await requireStepUp();
}

/** Step-up for an operator's sensitive action; anyone else gets the action's own "not found". */
export async function requireOperatorStepUp(): Promise<void> {
  const developer = await currentDeveloper();
  if (developer && (await findOperator(developer.id))) await requireStepUp();
}
