import { requireSandbox, type KeyAuth } from "@/lib/auth";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http";
import type { Phase } from "./limits";
import { presentRun } from "./present-run";
import { findRun } from "./read-runs";
import { endPhase, stopRun } from "./transitions";

const notOpen = (runId: string, status: string) => new ApiError("run_not_open", `Run ${runId} is ${status}; it can no longer change.`);

/**
 * POST /conformance/runs/{runId}/advance: ends the live phase now, graded with what was observed (so checks may be
 * inconclusive), and answers the run in its next phase. The session phase ends only once its Connect session has
 * completed, and the probes phase cannot end while the probes are being sent: 409 `phase_not_advanceable`.
 */
export async function advanceConformanceRun(key: KeyAuth, runId: string, origin: string) {
  requireSandbox(key);
  const run = await findRun(key, runId);
  if (run.status !== "open") throw notOpen(runId, run.status === "creating" ? "still being created" : run.status);
  const phase = run.phase as Phase;
  if (phase === "session") {
    const completed = run.connectSessionId ? await db().connectSession.count({ where: { id: run.connectSessionId, status: "completed" } }) : 0;
    if (completed === 0) throw new ApiError("phase_not_advanceable", "The session phase ends only when a Connect session created with the run key has completed.");
  }
  if (phase === "webhook_probes" && run.probesStartedAt && !run.probes) {
    throw new ApiError("phase_not_advanceable", "The webhook probes are being sent; the phase ends when they have been answered.");
  }
  const ended = await endPhase(run.id, phase, "advanced");
  if (ended) return presentRun(ended, origin);
  // The run's job ended the phase at the same moment (the answer is the same), or a cancel or expiry won.
  const after = await db().conformanceRun.findUniqueOrThrow({ where: { id: run.id } });
  if (after.status === "cancelled" || after.status === "expired") throw notOpen(runId, after.status);
  return presentRun(after, origin);
}

/** POST /conformance/runs/{runId}/cancel: the run ends cancelled, without a verdict, and its key is revoked. */
export async function cancelConformanceRun(key: KeyAuth, runId: string, origin: string) {
  requireSandbox(key);
  const run = await findRun(key, runId);
  const cancelled = await stopRun(run.id, "cancelled");
  return presentRun(cancelled ?? run, origin);
}
