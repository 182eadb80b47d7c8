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
  })
  .meta({ id: "ConsentReceipt", description: "What a subject shares with the application, and until when." });
