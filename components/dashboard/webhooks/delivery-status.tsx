import { Badge } from "@/components/ui/badge";

export type DeliveryStatus = "pending" | "succeeded" | "failed";

const TONES = { pending: "info", succeeded: "success", failed: "danger" } as const;

/** A delivery's state as a badge: pending (being tried or retried), succeeded (a 2xx) or failed (eight attempts). */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return <Badge tone={TONES[status]}>{status}</Badge>;
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
