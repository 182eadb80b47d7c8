import { notFound } from "next/navigation";
import { revalidatePath } from "next/cache";
import { findOperator, type Operator } from "@/lib/operators";
import { actionFailure } from "./action-result";
import { auditedRequest } from "./audited-request";
import type { ActionResult } from "./application-action";
import { currentDeveloper, requireDeveloper } from "./current-developer";
import { requireEnrolment } from "./second-factor-gate";

/** Where the operator area lives in the dashboard. */
export const OPERATOR_PATH = "/dashboard/operator";

/** For the operator pages: the signed-in operator, or a real 404 for any other account (signed out: sign-in). */
export async function requireOperatorPage(): Promise<Operator> {
  const developer = await requireDeveloper();
  const operator = await findOperator(developer.id);
  if (!operator) notFound();
  // An operator's powers need a second factor: enrolled first (lib/dashboard/second-factor-gate.ts).
  await requireEnrolment(OPERATOR_PATH);
  return operator;
}

/** Whether the signed-in developer is an operator (the dashboard shows the Operator link to them only). */
export async function isSignedInOperator(): Promise<boolean> {
  const developer = await currentDeveloper();
  return developer ? (await findOperator(developer.id)) !== null : false;
}

/**
 * The body of every operator server action: the signed-in account's id goes to the domain function, which checks
 * the operator role itself (lib/operators requireOperator), so a non-operator's forged call is answered "not found"
 * and changes nothing. Afterwards the operator pages render again.
 */
export async function operatorAction<T>(perform: (developerId: string) => Promise<T>, success: string | ((result: T) => string)): Promise<ActionResult> {
  const developer = await currentDeveloper();
  if (!developer) return { ok: false, error: "The page was not found." };
  if (await findOperator(developer.id)) await requireEnrolment();
  let result: T;
  try {
    result = await auditedRequest(() => perform(developer.id));
  } catch (error) {
    return actionFailure(error);
  }
  revalidatePath(OPERATOR_PATH, "layout");
  return { ok: true, message: typeof success === "function" ? success(result) : success };
}
