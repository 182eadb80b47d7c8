import { setTimeout as sleep } from "node:timers/promises";
import type PgBoss from "pg-boss";
import { db, Prisma } from "@/lib/db";
import type { JobDefinition } from "@/lib/jobs";
import { log } from "@/lib/log";
import { QUEUE, sendJob } from "@/lib/queue";
import { applySubjectControl, revokeAsPatient, simulateApplicationSession } from "@/lib/simulation";
import { FORCED_RATE_LIMITS, PHASE_TIMEOUT_MS, PROBES_LEASE_MS, type Phase } from "./limits";
import { isRecordRead, succeeded } from "./observations";
import { sendProbes } from "./probes";
import { observeRun } from "./run-facts";
import { forcedOf, type RunRow } from "./run-row";
import { changeWatchOver, everyCategoryRead, revocationWatchOver } from "./signals";
import { endPhase, stopRun } from "./transitions";
import { processState } from "@/lib/process-state";

/** How often the job looks at its run, and how long one job drives it before handing over to the next. */
const TICK_MS = 250;
const JOB_BUDGET_MS = 10_000;

type RunJobData = { runId: string };

/**
 * Queues the run's job; one queued and one active per run at most (the queue's `stately` policy). Null when no job
 * was queued: one is queued already, or the queue does not exist (no worker ever created it).
 */
export function queueRunDriver(runId: string): Promise<string | null> {
  return sendJob(QUEUE.conformanceRun, { runId } satisfies RunJobData, { singletonKey: runId });
}

/**
 * Drives one run for up to JOB_BUDGET_MS, a step every TICK_MS, then queues its successor while the run is open.
 * Every step is idempotent and each transition is conditional on the run's state, so a job rerun after a crash, or
 * an advance or cancel arriving at the same time, never does a phase's work twice.
 */
async function driveRun(runId: string): Promise<void> {
  const deadline = Date.now() + JOB_BUDGET_MS;
  for (;;) {
    const run = await db().conformanceRun.findUnique({ where: { id: runId } });
    if (!run || run.status === "ended" || run.status === "cancelled" || run.status === "expired") return;
    if (run.status === "open") await stepRun(run);
    if (Date.now() >= deadline) break;
    await sleep(TICK_MS);
  }
  await queueRunDriver(runId);
}

/** One look at the run: does the live phase's work that is due, and ends the phase when it is over. */
async function stepRun(run: RunRow): Promise<void> {
  const now = Date.now();
  const phase = run.phase as Phase;
  if (phase !== "session" && now - run.phaseStartedAt.getTime() >= PHASE_TIMEOUT_MS) {
    await endPhase(run.id, phase, "timed_out");
    return;
  }
  switch (phase) {
    case "session":
      return sessionStep(run, now);
    case "rate_limits":
      return readingStep(run, now);
    case "consent_revocation":
      return revocationStep(run, now);
    case "webhook_probes":
      return probesStep(run, now);
  }
}

/**
 * Waits for a Connect session created with the run key and completes it as the scenario's patient (the simulation's
 * own path); the phase ends when it has completed. Without a session by `expiresAt`, the run expires.
 */
async function sessionStep(run: RunRow, now: number): Promise<void> {
  const sessions = await db().connectSession.findMany({
    where: { conformanceRunId: run.id, status: { in: ["pending", "completed"] } },
    orderBy: { createdAt: "desc" },
    select: { id: true, status: true, subjectId: true, simulationScenario: true, simulationState: true, expiresAt: true },
  });
  const session = sessions.find((candidate) => candidate.status === "completed") ?? sessions.find((candidate) => candidate.simulationState !== "failed" && candidate.expiresAt.getTime() > now);
  if (!session) {
    if (run.expiresAt.getTime() <= now) await stopRun(run.id, "expired", new Date(now));
    return;
  }
  if (run.connectSessionId !== session.id || run.subjectId !== session.subjectId) {
    await db().conformanceRun.updateMany({ where: { id: run.id, status: "open", phase: "session" }, data: { connectSessionId: session.id, subjectId: session.subjectId } });
  }
  if (session.status === "completed") {
    await endPhase(run.id, "session", "completed");
    return;
  }
  if (session.simulationScenario === null && now - (refusedSimulations.get(session.id) ?? 0) >= SIMULATE_RETRY_MS) {
    try {
      await simulateApplicationSession(run.applicationId, session.id, run.scenario);
      refusedSimulations.delete(session.id);
    } catch (error) {
      refusedSimulations.set(session.id, now);
      log.warn({ runId: run.id, err: (error as Error).message }, "conformance run could not complete its Connect session");
    }
  }
}

/**
 * Sessions whose simulation was refused (e.g. the sandbox's synthetic-patient limit), by when: tried again only
 * after SIMULATE_RETRY_MS rather than on every step. Per process, which is enough for a retry pace.
 */
const refusedSimulations = processState("conformance.refused-simulations", () => new Map<string, number>());
const SIMULATE_RETRY_MS = 30_000;

/**
 * The reading phase ends once both forced 429s were answered and a read succeeded after the last, and the import has
 * finished. A continuous run then changes the subject's records (records.updated) as soon as every category the
 * session shares has been read from the start once (its first page, or a snapshot), so the integration holds a
 * changeCursor for each; the phase ends once the change feed was read and WATCH_MS have passed since the change, or
 * SIGNAL_WAIT_MS after the run advanced the source. No rule depends on the integration going quiet.
 */
async function readingStep(run: RunRow, now: number): Promise<void> {
  const forced = forcedOf(run);
  if (forced.length < FORCED_RATE_LIMITS || !run.subjectId || !run.connectSessionId) return;
  const facts = await observeRun(run);
  const reads = facts.requests.filter(isRecordRead);
  const lastForcedAt = Date.parse(forced.at(-1)!.at);
  if (!reads.some((read) => succeeded(read) && read.startedAt > lastForcedAt)) return;
  if (facts.session?.simulationState !== "completed" && facts.session?.simulationState !== "failed") return;

  if (run.syncMode === "one_time") {
    await endPhase(run.id, "rate_limits", "completed");
    return;
  }
  if (!run.sourceAdvancedAt) {
    if (!everyCategoryRead(reads, run.subjectId, facts.session.grantedCategories)) return;
    const claimed = await db().conformanceRun.updateMany({ where: { id: run.id, status: "open", phase: "rate_limits", sourceAdvancedAt: null }, data: { sourceAdvancedAt: new Date(now) } });
    if (claimed.count === 1) {
      await applySubjectControl(run.applicationId, run.subjectId, { type: "records.advance" }).catch((error: unknown) =>
        log.warn({ runId: run.id, err: (error as Error).message }, "conformance run could not change the subject's records"),
      );
    }
    return;
  }
  if (changeWatchOver(facts, now)) await endPhase(run.id, "rate_limits", "completed");
}

/**
 * Revokes the subject's consent as the patient, then watches the subject's reads for WATCH_MS after the integration
 * was told (revocationSignal); without any signal SIGNAL_WAIT_MS after the revocation, the phase ends inconclusive.
 */
async function revocationStep(run: RunRow, now: number): Promise<void> {
  if (!run.subjectId) return;
  if (!run.revokedAt) {
    await db().conformanceRun.updateMany({ where: { id: run.id, status: "open", phase: "consent_revocation", revokedAt: null }, data: { revokedAt: new Date(now) } });
  }
  // Repeated every step until done: a job that died between the claim and the revocation revokes on its rerun.
  await revokeAsPatient(run.subjectId, "patient");
  const current = await db().conformanceRun.findUniqueOrThrow({ where: { id: run.id } });
  if (revocationWatchOver(await observeRun(current), now)) await endPhase(run.id, "consent_revocation", "completed");
}

/** Sends the probes once (again only if a worker died sending them), then ends the run. */
async function probesStep(run: RunRow, now: number): Promise<void> {
  if (!run.probes) {
    const claimed = await db().conformanceRun.updateMany({
      where: { id: run.id, status: "open", phase: "webhook_probes", probes: { equals: Prisma.DbNull }, OR: [{ probesStartedAt: null }, { probesStartedAt: { lt: new Date(now - PROBES_LEASE_MS) } }] },
      data: { probesStartedAt: new Date(now) },
    });
    if (claimed.count === 0) return;
    const answers = await sendProbes(run.applicationId, run.id);
    await db().conformanceRun.updateMany({ where: { id: run.id, status: "open", phase: "webhook_probes" }, data: { probes: answers } });
  }
  await endPhase(run.id, "webhook_probes", "completed");
}

/** The `conformance-run` queue: one job at a time per run, many runs side by side. */
export const conformanceRunJob = {
  queue: QUEUE.conformanceRun,
  policy: { policy: "stately", retryLimit: 10, retryDelay: 2, retryBackoff: true, expireInSeconds: 120 },
  pollers: 4,
  batchSize: 2,
  pollingIntervalSeconds: 0.5,
  async handler(job: PgBoss.JobWithMetadata<RunJobData>) {
    await driveRun(job.data.runId);
  },
} satisfies JobDefinition<RunJobData>;
