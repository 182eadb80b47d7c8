"use server";

import { applicationAction } from "@/lib/dashboard";
import { rerunApplicationSource } from "@/lib/imports";

/** Re-runs one source's sync of one of the application's subjects (live or sandbox) now: rate-limited and audited. */
export async function rerunSourceAction(applicationId: string, sourceId: string) {
  return applicationAction(applicationId, (access) => rerunApplicationSource(access, sourceId), ({ providerName }) => `Sync of ${providerName} queued: its history shows the result in a moment.`);
}
