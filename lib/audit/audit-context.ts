import { AsyncLocalStorage } from "node:async_hooks";
import { processState } from "@/lib/process-state";

/** Outside any request (a command, a job) the address is not known. */
export const NO_ADDRESS = "unknown";

const context = processState("audit.context", () => new AsyncLocalStorage<{ address: string }>());

/**
 * Runs `work` with the client's network address on record for the audit entries it writes. The request's entry
 * points set it once (the API pipeline, the dashboard's server actions), so a domain function records its entry
 * with one line and never has to thread the address through its signature.
 */
export function withAuditAddress<T>(address: string, work: () => T): T {
  return context.run({ address }, work);
}

export function currentAuditAddress(): string {
  return context.getStore()?.address ?? NO_ADDRESS;
}
