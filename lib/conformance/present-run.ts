import { FORCED_RATE_LIMITS, PHASES, type RunPhase } from "./limits";
import { checksOf, timelineOf, type RunRow } from "./run-row";
import type { PhaseEntry, ReportResource, RunResource } from "./schemas";

const syncModeName = (mode: RunRow["syncMode"]): RunResource["sync_mode"] => (mode === "continuous" ? "continuous" : "one-time");
const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A run still being created reads as open: its creation either finishes or leaves nothing. */
function statusName(run: RunRow): RunResource["status"] {
  return run.status === "creating" ? "open" : run.status;
}

/**
 * Every phase with its state: the timeline's entries, the live one active, the rest pending (skipped once ended). A
 * phase the run was cancelled or expired in reads `stopped`, never `completed`: it did not run to its end.
 */
function phasesOf(run: RunRow): PhaseEntry[] {
  const timeline = timelineOf(run);
  return PHASES.map((name) => {
    const entry = timeline.find((candidate) => candidate.name === name);
    if (entry) {
      const status = !entry.endedAt ? "active" : entry.endedBy === "cancelled" || entry.endedBy === "expired" ? "stopped" : "completed";
      return { name, status, startedAt: entry.startedAt, endedAt: entry.endedAt, endedBy: entry.endedBy };
    }
    if (run.status === "open" && run.phase === name) {
      return { name, status: "active", startedAt: run.phaseStartedAt.toISOString(), endedAt: null, endedBy: null };
    }
    return { name, status: run.phase === "ended" ? "skipped" : "pending", startedAt: null, endedAt: null, endedBy: null };
  });
}

/** What the run waits for from the integration now, in the words the dashboard shows. */
export function waitingFor(run: RunRow): string | null {
  if (run.status !== "open" && run.status !== "creating") return null;
  switch (run.phase as RunPhase) {
    case "session":
      return run.connectSessionId
        ? "The platform is completing the Connect session as the scenario's patient and importing the records."
        : "Create a Connect session with the run key (POST /connect/sessions).";
    case "rate_limits":
      if (run.forcedRateLimits < FORCED_RATE_LIMITS) return "Read the subject's records with the run key; the first two reads are answered 429: retry each after Retry-After.";
      if (run.syncMode === "continuous" && run.sourceAdvancedAt) return "The subject's records changed (records.updated): read the change feed from the saved changeCursor; the run watches for re-reads for 15 s.";
      return run.syncMode === "continuous"
        ? "Retry after Retry-After and read each shared category once; the records change as soon as every category was read."
        : "Retry the rate-limited read after Retry-After; the phase ends once a read succeeded after it and the import finished.";
    case "consent_revocation":
      return run.revokedAt
        ? "Consent was revoked (consent.revoked): stop reading the subject. Reads are watched for 15 s after the integration was told, and until the run ends."
        : "Revoking the subject's consent.";
    case "webhook_probes":
      return "Sending webhook probes to the application's webhook URL: answer 2xx to correctly signed ones (retries included) and 4xx to the rest.";
    default:
      return null;
  }
}

function runFields(run: RunRow) {
  return {
    status: statusName(run),
    scenario: run.scenario,
    sync_mode: syncModeName(run.syncMode),
    phase: run.phase as RunPhase,
    waitingFor: waitingFor(run),
    phases: phasesOf(run),
    checks: checksOf(run),
    verdict: run.verdict as RunResource["verdict"],
    createdAt: run.createdAt.toISOString(),
    endedAt: iso(run.endedAt),
  };
}

/** The run resource: never its key; the report links carry the public token. */
export function presentRun(run: RunRow, origin: string): RunResource {
  return {
    object: "conformance_run",
    id: run.id,
    ...runFields(run),
    expiresAt: run.connectSessionId || run.status !== "open" ? null : run.expiresAt.toISOString(),
    links: { report: `${origin}/conformance/reports/${run.reportToken}`, reportPage: `${origin}/reports/${run.reportToken}` },
  };
}

/**
 * The public report: the application by its name only, and the run's phases and checks, whose evidence holds counts,
 * timings, status codes and request ids, never a subject, session, key or record.
 */
export function presentReport(run: RunRow, applicationName: string, now = new Date()): ReportResource {
  return {
    object: "conformance_report",
    application: { name: applicationName },
    ...runFields(run),
    reportExpiresAt: (run.reportExpiresAt ?? run.createdAt).toISOString(),
    generatedAt: now.toISOString(),
  };
}
