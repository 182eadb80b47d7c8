import type { Prisma } from "@/lib/db";
import type { Check, PhaseEntry } from "./schemas";

/** A run as stored. */
export type RunRow = Prisma.ConformanceRunGetPayload<object>;

/** One entry of the stored timeline: a phase that started, and how it ended once it has. */
export type TimelineEntry = { name: PhaseEntry["name"]; startedAt: string; endedAt: string | null; endedBy: PhaseEntry["endedBy"] };

/** A forced 429 as the read that was refused recorded it. */
export type ForcedRateLimit = { requestId: string; at: string; retryAfterSeconds: number };

/** The answer to one webhook probe. */
export type ProbeKind = "valid" | "bad_signature" | "tampered_body" | "stale_timestamp" | "wrong_secret" | "redelivery";
export type ProbeAnswer = { kind: ProbeKind; webhookId: string; status: number | null; latencyMs: number; error: string | null };

export const timelineOf = (run: RunRow) => run.timeline as TimelineEntry[];
export const checksOf = (run: RunRow) => run.checks as Check[];
export const forcedOf = (run: RunRow) => run.forced as ForcedRateLimit[];
export const probesOf = (run: RunRow) => (run.probes ?? null) as ProbeAnswer[] | null;
