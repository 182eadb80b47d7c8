import type PgBoss from "pg-boss";
import { revokeReceipt } from "@/lib/consent";
import { db, withTransaction } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { importSource } from "@/lib/imports";
import type { JobDefinition } from "@/lib/jobs";
import { log } from "@/lib/log";
import { QUEUE } from "@/lib/queue";
import { findScenario } from "@/lib/sandbox";
import { connectSimulatedSource } from "./connect-source";
import { failureCodeOf, setSimulationState } from "./simulation-state";

/**
 * The part of a simulation after the session has completed, run by the `sandbox-simulation` job: each scenario
 * source in order is connected (the second one only now, so clients see the session completed first) and imported
 * through the import job's code; `source-unavailable`'s second source fails its import (the health system is
 * unreachable) and the simulation still completes, the source reporting the failure; `consent-revoked` then revokes
 * as the patient. Each step is skipped when already done, so a rerun (a worker died, or simulate was repeated)
 * finishes the simulation without repeating anything. Ends `completed`, or `failed` with a failure code.
 */
export async function runSimulation(sessionId: string): Promise<void> {
  const session = await db().connectSession.findUnique({ where: { id: sessionId }, include: { subject: { select: { id: true, patientId: true } } } });
  const scenario = findScenario(session?.simulationScenario ?? "");
  if (!session || !scenario || !session.subject || session.status !== "completed") return;
  if (session.simulationState === "completed" || session.simulationState === "failed") return;
  const subject = session.subject;
  try {
    for (const [index, spec] of scenario.sources.entries()) {
      let source = await db().source.findFirst({ where: { subjectId: subject.id, providerId: spec.providerId } });
      if (!source) {
        const sourceId = await connectSimulatedSource({ sessionId, scenarioId: scenario.id, sourceKey: spec.key, providerId: spec.providerId, patientId: subject.patientId });
        // source-unavailable: the second health system cannot be reached when its records are first read.
        const unavailable = scenario.behavior === "source_unavailable" && index > 0;
        source = await db().source.update({ where: { id: sourceId }, data: { failNextImport: unavailable } });
      }
      if (source.syncStatus === "pending" || source.syncStatus === "syncing") {
        // A failed import is the source's state (and `sync.failed`), not the simulation's failure.
        await importSource(source.id).catch((error: unknown) => log.info({ sessionId, sourceId: source.id, err: String(error) }, "simulated source import failed"));
      }
    }
    if (scenario.behavior === "consent_revoked") await revokeAsPatient(subject.id, "patient");
    await setSimulationState(sessionId, "completed");
  } catch (error) {
    log.warn({ sessionId, err: error instanceof Error ? error.message : String(error) }, "sandbox simulation failed");
    await setSimulationState(sessionId, "failed", failureCodeOf(error));
  }
}

/** Revokes each active share receipt of the subject as the patient, storing `consent.revoked` with each. */
export async function revokeAsPatient(subjectId: string, reason: "patient" | "sandbox", now = new Date()) {
  const receipts = await db().consentReceipt.findMany({ where: { subjectId, status: "active" } });
  const revoked: typeof receipts = [];
  for (const receipt of receipts) {
    const done = await withTransaction("ReadCommitted", async (tx) => {
      if (!(await revokeReceipt(receipt.id, reason, now, tx))) return false;
      await recordEvent(
        {
          applicationId: receipt.applicationId,
          environment: receipt.environment,
          type: "consent.revoked",
          data: { subject: subjectId, receiptId: receipt.id, categories: receipt.categories, reason },
        },
        tx,
      );
      return true;
    });
    if (done) revoked.push({ ...receipt, status: "revoked", revokedAt: now });
  }
  return revoked;
}

type SimulationJobData = { sessionId: string };

export const sandboxSimulationJob = {
  queue: QUEUE.sandboxSimulation,
  policy: { policy: "standard", retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 600 },
  async handler(job: PgBoss.JobWithMetadata<SimulationJobData>) {
    await runSimulation(job.data.sessionId);
  },
} satisfies JobDefinition<SimulationJobData>;
