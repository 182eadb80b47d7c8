import type { LifecycleCycle } from "@/lib/jobs";
import { markExpiredReceipts } from "./receipts";

export const expireConsentReceipts = {
  name: "expire-consent-receipts",
  run: (now: Date) => markExpiredReceipts(now),
} satisfies LifecycleCycle;
