import { setTimeout as sleep } from "node:timers/promises";
import { db, withTransaction, type Prisma, type Tx } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { recordSpan } from "@/lib/tracing";
import { finalChecks, gradePhase, verdictOf } from "./grade";
import { PHASES, SETTLE_MS, type Phase } from "./limits";
import { observeRun } from "./run-facts";
import { checksOf, timelineOf, type RunRow, type TimelineEntry } from "./run-row";

type EndedBy = NonNullable<TimelineEntry["endedBy"]>;

/** Locks the run's row for the rest of the transaction and reads it. */
async function lockRun(tx: Tx, runId: string): Promise<RunRow | null> {
  await tx.$queryRaw`SELECT id FROM "ConformanceRun" WHERE id = ${runId} FOR UPDATE`;
  return tx.conformanceRun.findUnique({ where: { id: runId } });
}

/** The timeline with the live phase closed at `at`, and the next one opened unless the run ends. */
function closePhase(run: RunRow, at: Date, endedBy: EndedBy, next: Phase | null): Prisma.InputJsonValue {
  const timeline = timelineOf(run).map((entry) => (entry.endedAt === null ? { ...entry, endedAt: at.toISOString(), endedBy } : entry));
  if (next) timeline.push({ name: next, startedAt: at.toISOString(), endedAt: null, endedBy: null });
  return timeline as Prisma.InputJsonValue;
}

const revokeRunKey = (tx: Tx, runId: string, at: Date) => tx.apiKey.updateMany({ where: { conformanceRunId: runId, revokedAt: null }, data: { revokedAt: at } });

/**
 * Ends the run's live phase `phase`: grades what was observed up to now, then moves the run to the next phase, or
 * ends it with its verdict (and revokes the run key) after the last; the revocation check is then graded again over
 * everything seen until the end. Grading waits until the request log rows up
 * to now have been written (SETTLE_MS). Returns null when the run had already left the phase (another instance, or
 * the job and an advance at once, ended it first).
 */
export async function endPhase(runId: string, phase: Phase, endedBy: "completed" | "advanced" | "timed_out"): Promise<RunRow | null> {
  const endedAt = new Date();
  await sleep(SETTLE_MS);
  const before = await db().conformanceRun.findUnique({ where: { id: runId } });
  if (!before || before.status !== "open" || before.phase !== phase) return null;
  const facts = await observeRun(before);
  const checks = gradePhase(facts, phase, endedAt.getTime());
  const ended = await withTransaction("ReadCommitted", async (tx) => {
    const run = await lockRun(tx, runId);
    if (!run || run.status !== "open" || run.phase !== phase) return null;
    if (phase === "webhook_probes" && run.probesStartedAt && !run.probes) {
      throw new ApiError("phase_not_advanceable", "The webhook probes are being sent; the phase ends when they have been answered.");
    }
    const next = PHASES[PHASES.indexOf(phase) + 1] ?? null;
    const graded = [...checksOf(run), ...checks];
    const allChecks = next ? graded : finalChecks(graded, facts, endedAt.getTime());
    const data: Prisma.ConformanceRunUpdateInput = {
      phase: next ?? "ended",
      phaseStartedAt: endedAt,
      timeline: closePhase(run, endedAt, endedBy, next),
      checks: allChecks as Prisma.InputJsonValue,
    };
    if (!next) {
      Object.assign(data, { status: "ended", verdict: verdictOf(allChecks), endedAt });
      await revokeRunKey(tx, runId, endedAt);
    }
    return tx.conformanceRun.update({ where: { id: runId }, data });
  });
  if (ended) recordSpan("conformance.phase", { "chartkey.conformance.phase": phase, "chartkey.conformance.ended_by": endedBy }, before.phaseStartedAt, endedAt);
  return ended;
}

/**
 * Cancels an open run (or one still being created), or expires it when it had no Connect session in time: the run
 * ends without a verdict and its key is revoked in the same transaction. A run already over is 409 `run_not_open`
 * for a cancel, and left alone by an expiry.
 */
export async function stopRun(runId: string, how: "cancelled" | "expired", now = new Date()): Promise<RunRow | null> {
  return withTransaction("ReadCommitted", async (tx) => {
    const run = await lockRun(tx, runId);
    if (!run) return null;
    if (run.status !== "open" && run.status !== "creating") {
      if (how === "cancelled") throw new ApiError("run_not_open", `Run ${runId} is ${run.status}; only an open run can be cancelled.`);
      return null;
    }
    if (how === "expired" && (run.expiresAt > now || (await tx.connectSession.count({ where: { conformanceRunId: runId } })) > 0)) return null;
    await revokeRunKey(tx, runId, now);
    return tx.conformanceRun.update({
      where: { id: runId },
      data: { status: how, phase: "ended", endedAt: now, timeline: closePhase(run, now, how, null) },
    });
  });
}
