"use server";

import { redirect } from "next/navigation";
import { deleteApplication, renameApplication, requestProduction, setRedirectUrls, setSyncMode, updateCategoryAllowlist, type ProductionRequestInput } from "@/lib/applications";
import { applicationAction, dashboardOrigin } from "@/lib/dashboard";
import { emailOperatorsOfProductionRequest } from "@/lib/operators";

export async function renameAction(applicationId: string, input: { name: string }) {
  return applicationAction(applicationId, (access) => renameApplication(access, input), "Application renamed.");
}

export async function allowlistAction(applicationId: string, input: { categories: string[] }) {
  return applicationAction(applicationId, (access) => updateCategoryAllowlist(access, input), "Category allowlist saved. New Connect sessions may ask only for these.");
}

export async function syncModeAction(applicationId: string, input: { syncMode: "one-time" | "continuous" }) {
  return applicationAction(applicationId, (access) => setSyncMode(access, input), `Sync mode set to ${input.syncMode}.`);
}

export async function redirectUrlsAction(applicationId: string, input: { redirectUrls: string[] }) {
  return applicationAction(applicationId, (access) => setRedirectUrls(access, input), "Redirect URLs saved.");
}

export async function requestProductionAction(applicationId: string, input: ProductionRequestInput) {
  return applicationAction(
    applicationId,
    async (access) => {
      const request = await requestProduction(access, input);
      // The operators learn of it by email (a delivery failure is logged; the request stands).
      await emailOperatorsOfProductionRequest(access.application.id, await dashboardOrigin());
      return request;
    },
    "Production requested. An operator of this deployment will review it.",
  );
}

export async function deleteApplicationAction(applicationId: string) {
  const result = await applicationAction(applicationId, (access) => deleteApplication(access), "Application deleted.");
  if (result.ok) redirect("/dashboard?deleted=1");
  return result;
}
