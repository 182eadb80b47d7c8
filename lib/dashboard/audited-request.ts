import { headers } from "next/headers";
import { withAuditAddress } from "@/lib/audit";
import { headersClientAddress } from "@/lib/http";

/** Runs a server action's work with the client's address (as the platform's server recorded it) on the audit record. */
export async function auditedRequest<T>(work: () => Promise<T>): Promise<T> {
  return withAuditAddress(headersClientAddress(await headers()), work);
}
