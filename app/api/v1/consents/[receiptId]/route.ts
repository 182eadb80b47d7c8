import { route, serve } from "@/lib/api";
import { getConsentReceipt, readReceipt } from "@/lib/consent";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getConsentReceipt, async ({ auth, params }) => ({ body: await readReceipt(auth, params.receiptId) })),
});
