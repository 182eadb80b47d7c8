import { Badge } from "@/components/ui/badge";
import { deliveryFix, deliveryState } from "@/lib/webhooks";

export type DeliveryStatus = "pending" | "succeeded" | "failed";

const TONES = { pending: "info", retrying: "warning", succeeded: "success", failed: "danger" } as const;

/**
 * A delivery's state as a badge: pending (not tried yet), retrying (an attempt failed; the next is scheduled),
 * succeeded (a 2xx) or failed (eight attempts, or one when its URL is refused by its form).
 */
export function DeliveryStatusBadge({ status, attempts }: { status: DeliveryStatus; attempts: number }) {
  const state = deliveryState(status, attempts);
  return <Badge tone={TONES[state]}>{state}</Badge>;
}

/** The last failure of a delivery being retried: what went wrong, so "retrying" is never read without a cause. */
export function LastFailure({ status, attempts, error }: { status: DeliveryStatus; attempts: number; error: string | null }) {
  if (deliveryState(status, attempts) !== "retrying" || !error) return null;
  return <span className="mt-1 block min-w-48 max-w-xs text-xs text-slate-700">Last attempt: {error}</span>;
}

/** A response code as a badge; "—" before any answer (a timeout, a refused connection or no attempt yet). */
export function ResponseCode({ code }: { code: number | null }) {
  if (code === null) return <span className="text-slate-600">—</span>;
  return <Badge tone={code >= 200 && code < 300 ? "success" : code >= 500 ? "danger" : "warning"}>{code}</Badge>;
}

/** Times in the delivery log: UTC to the second, as the API's timestamps read. */
export function utcTime(value: Date | null): string {
  return value ? `${value.toISOString().replace("T", " ").slice(0, 19)} UTC` : "—";
}

/**
 * Why a failed delivery's URL was refused and how to fix it; nothing for any other delivery (a receiver's error is
 * in its attempts). A URL refused by its form fails at its first attempt, without retries.
 */
export function DeliveryRefusal({ status, error }: { status: DeliveryStatus; error: string | null }) {
  const fix = status === "failed" ? deliveryFix(error) : null;
  if (!fix) return null;
  return (
    <span className="mt-1 block min-w-48 max-w-xs text-xs text-slate-700">
      <span className="block font-mono text-red-800">{error}</span>
      <span className="block">{fix}</span>
    </span>
  );
}
