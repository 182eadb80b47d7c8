import type { KeyAuth } from "@/lib/auth";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { presentReceipt } from "./present-receipt";

/**
 * A receipt of the key's application and environment, whatever its status; any other id is 404. `pageUrl` makes
 * the patient's private receipt page (lib/connect owns its links); a receipt not made in Connect has none.
 */
export async function getConsentReceipt(key: KeyAuth, receiptId: string, pageUrl: (receiptId: string) => string, now = new Date()) {
  const receipt = await db().consentReceipt.findFirst({
    where: { id: receiptId, applicationId: key.application.id, environment: key.environment },
  });
  if (!receipt) throw new ApiError("not_found", `No consent receipt ${receiptId} for this application.`);
  return { ...presentReceipt(receipt, now), receiptUrl: receipt.patientTokenHash ? pageUrl(receipt.id) : null };
}
