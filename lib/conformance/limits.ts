/** The phases a run moves through, in order; `ended` follows the last (spec: Conformance run; design §6). */
export const PHASES = ["session", "rate_limits", "consent_revocation", "webhook_probes"] as const;
export type Phase = (typeof PHASES)[number];
export type RunPhase = Phase | "ended";

/** Spec, Limits: a run without a Connect session expires this long after its creation. */
export const RUN_EXPIRY_MINUTES = 60;
/** Spec, Limits: reports are kept this long, then the lifecycle job deletes the run and its report. */
export const REPORT_RETENTION_DAYS = 90;
/** Spec, Limits: up to two forced 429s per run, on the run key's record reads. */
export const FORCED_RATE_LIMITS = 2;
/** The Retry-After (seconds) a forced 429 carries. */
export const FORCED_RETRY_AFTER_SECONDS = 1;
/**
 * Server-side times are whole milliseconds (a request's start is its log time less its rounded latency), so a
 * retry measured this close under Retry-After is counted as on time.
 */
export const RETRY_TOLERANCE_MS = 10;
/**
 * A read that started less than this after the integration was told something (a revocation, a change) was already
 * under way, or about to be, when the news arrived: it is not held against the integration.
 */
export const IN_FLIGHT_ALLOWANCE_MS = 1_000;
/**
 * After the integration was told of the revocation, the run watches the subject's reads for at least this long
 * (longer than any sensible poll interval), and until the run ends; a phase advanced sooner leaves the check
 * inconclusive. A continuous run watches this long after its change for re-reads.
 */
export const WATCH_MS = 15_000;
/** Without a signal (nothing told the integration) or a change landing this long after the run's action, the phase ends, inconclusive. */
export const SIGNAL_WAIT_MS = 60_000;
/** A phase the integration does nothing in ends on its own after this long, graded with what was observed. */
export const PHASE_TIMEOUT_MS = 10 * 60_000;
/**
 * The request log is written in batches every half second on each instance; a phase is graded once rows up to its
 * end have had this long to arrive.
 */
export const SETTLE_MS = 1_000;
/** Each webhook probe's answer must arrive within this time. */
export const PROBE_TIMEOUT_MS = 5_000;
/** Probes claimed this long ago without answers (a worker died while sending) are sent again. */
export const PROBES_LEASE_MS = 2 * 60_000;
