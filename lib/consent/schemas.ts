import { z } from "zod";
import { CATEGORIES } from "@/lib/records/schemas";

export const consentReceiptSchema = z
  .object({
    object: z.literal("consent_receipt"),
    receiptId: z.string(),
    subject: z.string(),
    status: z.enum(["active", "revoked", "expired"]).describe("As of now: an active receipt past its expiry reads expired."),
    categories: z.array(z.enum(CATEGORIES)),
    grantedAt: z.string(),
    expiresAt: z.string(),
    revokedAt: z.string().nullable(),
    expiredAt: z.string().nullable(),
    receiptUrl: z
      .string()
      .nullable()
      .describe(
        "The patient's private receipt page: what they share, until when, and a way to stop sharing (after a confirmation); null for a receipt not given in Connect. Offer it to that patient only, e.g. as \"Manage sharing\": whoever holds it can revoke. Also on the redirect back after Connect as `receipt_url`, with `receipt_id`.",
      ),
  })
  .meta({ id: "ConsentReceipt", description: "What a subject shares with the application, and until when." });
