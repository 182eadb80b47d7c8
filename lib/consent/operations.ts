import { z } from "zod";
import { defineOperation, pathId, PLATFORM_PROFILE } from "@/lib/api";
import { consentReceiptSchema } from "./schemas";

export const getConsentReceiptOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "GET",
  path: "/consents/{receiptId}",
  operationId: "getConsentReceipt",
  tag: "Records",
  summary: "A consent receipt and its current status",
  auth: "key",
  agentOperation: "get_consent_receipt",
  params: z.object({ receiptId: pathId("cr_", { resource: "consent receipt", description: "The receipt id (cr_).", example: "cr_8Jd2Ks5Lq9Wm3Xn6Bv1Zc4Tf" }) }),
  success: {
    status: 200,
    description: "The receipt.",
    schema: consentReceiptSchema,
    example: () => ({
      object: "consent_receipt",
      receiptId: "cr_8Jd2Ks5Lq9Wm3Xn6Bv1Zc4Tf",
      subject: "u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd",
      status: "active",
      categories: ["medications", "allergies", "labs"],
      grantedAt: "2026-11-20T14:03:11.482Z",
      expiresAt: "2027-11-20T14:03:11.482Z",
      revokedAt: null,
      expiredAt: null,
      receiptUrl: "https://chartkey.example/consent/q8Hn2VxK4mT7pRz1Lw9cYd3Fb6Js0Ag5Ne8Ut2Ko4Xi",
    }),
  },
  errors: ["not_found"],
});
