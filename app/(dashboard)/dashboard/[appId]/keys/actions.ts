"use server";

import { requireVerifiedEmail } from "@/lib/accounts";
import { createKeyFor, revokeKeyFor, type CreateApiKeyInput } from "@/lib/applications";
import { applicationAction, refreshApplicationPages, requireStepUpFor, withApplication, type ActionFailure } from "@/lib/dashboard";

export type CreatedKey = { ok: true; key: string; displayPrefix: string; environment: "sandbox" | "live" } | ActionFailure;

export async function createKeyAction(applicationId: string, input: CreateApiKeyInput): Promise<CreatedKey> {
  // A live key reaches patients' records: the second factor again after a few minutes (step-up).
  if (input?.environment !== "sandbox") await requireStepUpFor(applicationId, "keys.live");
  const outcome = await withApplication(applicationId, async (access) => {
    // A live key only for an account whose address is confirmed (issue 57): refused here, not only in the dialog.
    if (input?.environment !== "sandbox") await requireVerifiedEmail(access.developerId);
    const created = await createKeyFor(access, input);
    refreshApplicationPages(access.application.id);
    return created;
  });
  if (!outcome.ok) return outcome;
  return { ok: true, key: outcome.value.key, displayPrefix: outcome.value.displayPrefix, environment: input.environment };
}

export async function revokeKeyAction(applicationId: string, keyId: string) {
  return applicationAction(applicationId, (access) => revokeKeyFor(access, keyId), (key) => `Key “${key.name}” revoked. Requests with it are refused from now on.`);
}
