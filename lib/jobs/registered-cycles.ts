import { conformanceRunsCycle } from "@/lib/conformance";
import { expireConnectSessions } from "@/lib/connect";
import { expireConsentReceipts } from "@/lib/consent";
import { purgeSyntheticPatients } from "@/lib/simulation";
import { pruneTefcaSessions } from "@/lib/tefca";
import { redispatchWebhookDeliveries } from "@/lib/webhooks";
import type { LifecycleCycle } from "./lifecycle";
import { pruneIdempotencyRecords, pruneRateLimitWindows, pruneRequestLogs } from "./prune-cycles";

/**
 * Every cycle the lifecycle job runs, in this order. A domain adds periodic upkeep (expiring consent receipts,
 * purging synthetic patients, expiring Connect sessions, ...) by exporting a `LifecycleCycle` from its own folder
 * and listing it here; the lifecycle job and the worker stay as they are.
 */
export const LIFECYCLE_CYCLES: readonly LifecycleCycle[] = [
  expireConsentReceipts,
  expireConnectSessions,
  purgeSyntheticPatients,
  pruneRequestLogs,
  pruneIdempotencyRecords,
  pruneRateLimitWindows,
  pruneTefcaSessions,
  redispatchWebhookDeliveries,
  conformanceRunsCycle,
];
