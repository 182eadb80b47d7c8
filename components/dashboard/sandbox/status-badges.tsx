import { Badge, type BadgeTone } from "@/components/ui/badge";

const SYNC_TONES: Record<string, BadgeTone> = { synced: "success", partial: "warning", failed: "danger", syncing: "info", pending: "neutral" };
const RECEIPT_TONES: Record<string, BadgeTone> = { active: "success", revoked: "danger", expired: "warning" };
const SESSION_TONES: Record<string, BadgeTone> = { completed: "success", pending: "info", cancelled: "neutral", expired: "warning" };
const SIMULATION_TONES: Record<string, BadgeTone> = { completed: "success", failed: "danger", queued: "neutral", connecting: "info", importing: "info" };

/** A source's sync status (pending, syncing, synced, partial, failed). */
export function SyncStatusBadge({ status }: { status: string }) {
  return <Badge tone={SYNC_TONES[status] ?? "neutral"}>{status}</Badge>;
}

/** A consent receipt's status as of now (active, revoked, expired), or that there is none yet. */
export function ReceiptStatusBadge({ status }: { status: string | null }) {
  return <Badge tone={status ? (RECEIPT_TONES[status] ?? "neutral") : "neutral"}>{status ? `consent ${status}` : "no receipt"}</Badge>;
}

export function SessionStatusBadge({ status }: { status: string }) {
  return <Badge tone={SESSION_TONES[status] ?? "neutral"}>{status}</Badge>;
}

export function SimulationStateBadge({ state }: { state: string }) {
  return <Badge tone={SIMULATION_TONES[state] ?? "neutral"}>{state}</Badge>;
}
