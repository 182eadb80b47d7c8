"use server";

import { actionFailure, currentDeveloper, operatorAction, requireOperatorStepUp, type ActionOutcome } from "@/lib/dashboard";
import { rerunProviderSyncs, rerunSourceAsOperator } from "@/lib/imports";
import {
  createLiveProvider,
  previewProvider,
  setLiveProviderDisabled,
  testLiveProvider,
  updateLiveProvider,
  type CreateProviderInput,
  type DiscoveryResult,
  type UpdateProviderInput,
} from "@/lib/provider-directory";

/** What discovery finds at a URL, shown before the operator adds it (nothing saved, nothing audited). */
export async function previewProviderAction(input: { fhirBaseUrl: string }): Promise<ActionOutcome<DiscoveryResult>> {
  const developer = await currentDeveloper();
  if (!developer) return { ok: false, error: "The page was not found." };
  try {
    return { ok: true, value: await previewProvider(developer.id, input) };
  } catch (error) {
    return actionFailure(error);
  }
}

// A provider's credentials (its client secret) ask for the second factor again after a few minutes (step-up).
export async function createProviderAction(input: CreateProviderInput) {
  await requireOperatorStepUp();
  return operatorAction((developerId) => createLiveProvider(developerId, input), "Health system added to the directory.");
}

export async function updateProviderAction(providerId: string, input: UpdateProviderInput) {
  await requireOperatorStepUp();
  return operatorAction((developerId) => updateLiveProvider(developerId, providerId, input), "Provider saved.");
}

export async function setProviderDisabledAction(providerId: string, disabled: boolean) {
  return operatorAction((developerId) => setLiveProviderDisabled(developerId, providerId, disabled), disabled ? "Provider disabled: Connect no longer offers it." : "Provider enabled.");
}

export async function testProviderAction(providerId: string) {
  return operatorAction(
    (developerId) => testLiveProvider(developerId, providerId),
    (provider) => (provider.checkError ? `Connection test failed: ${provider.checkError}` : "Connection test passed."),
  );
}

/** Re-runs one source's sync (an operator, whatever its application). */
export async function rerunSourceSyncAction(sourceId: string) {
  return operatorAction((developerId) => rerunSourceAsOperator(developerId, sourceId), ({ providerName }) => `Sync of ${providerName} queued for this subject.`);
}

/** Re-runs every sync of one live provider, for instance after fixing its credentials. */
export async function rerunProviderSyncsAction(providerId: string) {
  return operatorAction(
    (developerId) => rerunProviderSyncs(developerId, providerId),
    ({ providerName, sources }) => `${sources === 1 ? "1 sync" : `${sources} syncs`} of ${providerName} queued: the success rate and failures below follow them.`,
  );
}
