"use server";

import { operatorAction, requireOperatorStepUp } from "@/lib/dashboard";
import { approveProductionRequest, refuseProductionRequest, reinstateApplication, suspendApplication } from "@/lib/operators";

// Approving production and suspending an application ask for the second factor again after a few minutes (step-up).
export async function approveProductionAction(requestId: string, input: { note?: string }) {
  await requireOperatorStepUp();
  return operatorAction((developerId) => approveProductionRequest(developerId, requestId, input), "Production approved: the application's live keys work now.");
}

export async function refuseProductionAction(requestId: string, input: { reason: string }) {
  return operatorAction((developerId) => refuseProductionRequest(developerId, requestId, input), "Production refused; the developer sees your reason.");
}

export async function suspendApplicationAction(applicationId: string, input: { reason: string }) {
  await requireOperatorStepUp();
  return operatorAction((developerId) => suspendApplication(developerId, applicationId, input), "Application suspended: its keys answer 403 app_suspended.");
}

export async function reinstateApplicationAction(applicationId: string) {
  return operatorAction((developerId) => reinstateApplication(developerId, applicationId), "Application reinstated.");
}
