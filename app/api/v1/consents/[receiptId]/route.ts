import { route, serve } from "@/lib/api";
import { publicOrigin } from "@/lib/config";
import { receiptUrl } from "@/lib/connect";
import { getConsentReceipt, readReceipt } from "@/lib/consent";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getConsentReceipt, async ({ auth, params, url }) => ({
    body: await readReceipt(auth, params.receiptId, (receiptId) => receiptUrl(publicOrigin(url.origin), receiptId)),
  })),
});
