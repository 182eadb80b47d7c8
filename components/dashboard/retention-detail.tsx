import { Detail } from "@/components/ui/detail";
import type { RetentionState } from "@/lib/consent";

/**
 * The subject's data under the retention policy, on the dashboard's subject pages (issue 53, point 5): kept while
 * sharing; once the receipt ended, the date the purge is due; once purged, when, and whether the patient asked.
 */
export function RetentionDetail({ retention }: { retention: RetentionState | null }) {
  return (
    <Detail label="Data retention">
      {retention === null
        ? "—"
        : retention.kind === "sharing"
          ? "Kept while the receipt is active"
          : retention.kind === "kept"
            ? `Purged after ${retention.purgeAfter.toISOString()} (${retention.days} days after the receipt ended)`
            : retention.kind === "deleting"
              ? `Deletion requested by the patient ${retention.requestedAt.toISOString()}; purging`
              : `Purged ${retention.purgedAt.toISOString()}${retention.onRequest ? " at the patient's request" : " (retention period)"}`}
    </Detail>
  );
}
