import { requireSandbox, type KeyAuth } from "@/lib/auth";
import { sandboxPatientLimit } from "@/lib/config";
import { completeSession, effectiveSessionStatus, loadSession, presentSession } from "@/lib/connect";
import { db, withTransaction } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { QUEUE, sendJob } from "@/lib/queue";
import { findScenario, type Scenario } from "@/lib/sandbox";
import { connectSimulatedSource } from "./connect-source";
import { failureCodeOf, setSimulationState } from "./simulation-state";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Synthetic patients are purged this long after their simulation created them. */
export const SYNTHETIC_PATIENT_DAYS = 7;

/** A scenario a simulation can play: one with a synthetic patient (not a session-only scenario). */
function simulatableScenario(scenarioId: string): Scenario {
  const scenario = findScenario(scenarioId);
  if (!scenario || scenario.kind === "session" || scenario.sources.length === 0 || !scenario.patientId) {
    throw new ApiError("invalid_scenario", `${scenarioId} is not a scenario a session can be simulated with.`);
  }
  return scenario;
}

const notSimulatable = (why: string) => new ApiError("session_not_simulatable", `This session cannot be simulated: ${why}.`);

/**
 * POST /connect/sessions/{sessionId}/simulate. Claims the session for the scenario (a new synthetic patient and
 * subject, counted against the application's limit), connects the primary source and consents as the patient, then
 * leaves the rest (imports, a second source, a revocation) to the simulation job. Repeating with the same scenario
 * resumes whatever is unfinished and returns the session.
 */
export async function simulateConnectSession(key: KeyAuth, sessionId: string, scenarioId: string, origin: string, now = new Date()) {
  requireSandbox(key);
  await simulateApplicationSession(key.application.id, sessionId, scenarioId, now);
  return presentSession((await loadSession({ id: sessionId }))!, origin);
}

/**
 * Simulates one of the application's sandbox sessions with the scenario, as simulate does for a sandbox key; a
 * conformance run completes the session its integration created this way.
 */
export async function simulateApplicationSession(applicationId: string, sessionId: string, scenarioId: string, now = new Date()): Promise<void> {
  const scenario = simulatableScenario(scenarioId);
  const session = await loadSession({ id: sessionId, applicationId, environment: "sandbox" });
  if (!session) throw new ApiError("not_found", `No Connect session ${sessionId} for this application.`);

  if (session.simulationScenario === null) {
    if (effectiveSessionStatus(session, now) !== "pending") throw notSimulatable(`it is ${effectiveSessionStatus(session, now)}`);
    if (session.subjectId) throw notSimulatable("a patient has already signed in to it");
    const granted = session.categories.filter((category) => (scenario.consentCategories as string[]).includes(category));
    if (granted.length === 0) throw new ApiError("invalid_categories", `The ${scenario.id} patient consents to none of this session's categories.`);
    await claimSession(applicationId, session.id, scenario, now);
  } else if (session.simulationScenario !== scenario.id) {
    throw notSimulatable(`it is bound to the ${session.simulationScenario} scenario`);
  }

  await continueSimulation(session.id);
}

/** One transaction: the limit is checked and the synthetic patient created under the application's row lock. */
async function claimSession(applicationId: string, sessionId: string, scenario: Scenario, now: Date): Promise<void> {
  await withTransaction("ReadCommitted", async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Application" WHERE "id" = ${applicationId} FOR UPDATE`;
    await tx.$queryRaw`SELECT "id" FROM "ConnectSession" WHERE "id" = ${sessionId} FOR UPDATE`;
    const session = await tx.connectSession.findUniqueOrThrow({ where: { id: sessionId } });
    if (session.simulationScenario === scenario.id) return; // a concurrent identical request claimed it: resume
    if (session.simulationScenario !== null) throw notSimulatable(`it is bound to the ${session.simulationScenario} scenario`);
    if (session.status !== "pending" || session.expiresAt <= now) throw notSimulatable("it is no longer pending");
    if (session.subjectId) throw notSimulatable("a patient has already signed in to it");
    const limit = sandboxPatientLimit();
    const active = await tx.patient.count({ where: { syntheticForApplicationId: applicationId, purgeAt: { gt: now } } });
    if (active >= limit) throw new ApiError("sandbox_limit_reached", `This application has ${active} active synthetic patients, the most allowed (${limit}); they are purged 7 days after creation.`);
    const patient = await tx.patient.create({
      data: {
        id: newId("pat_"),
        environment: "sandbox",
        syntheticForApplicationId: applicationId,
        scenario: scenario.id,
        purgeAt: new Date(now.getTime() + SYNTHETIC_PATIENT_DAYS * DAY_MS),
      },
    });
    const subject = await tx.subject.create({ data: { id: newId("u_"), applicationId, environment: "sandbox", patientId: patient.id } });
    await tx.connectSession.update({
      where: { id: sessionId },
      data: { subjectId: subject.id, simulationScenario: scenario.id, simulationState: "queued", simulationFailureCode: null },
    });
  });
}

/**
 * Drives a claimed simulation as far as the request goes: while the session is pending, the patient signs in at the
 * primary source (`connecting`) and consents (the session completes, `consent.granted`), then `importing` and the
 * job is queued. A simulation already past that only has its job queued again (the job skips what is done); a
 * finished one is left alone. A failure here ends the simulation `failed` with its code, never as an error.
 */
export async function continueSimulation(sessionId: string): Promise<void> {
  const session = await db().connectSession.findUniqueOrThrow({ where: { id: sessionId }, include: { subject: { select: { patientId: true } } } });
  const scenario = findScenario(session.simulationScenario ?? "");
  if (!scenario || !session.subject) return;
  if (session.simulationState === "completed") return;
  if (session.simulationState === "failed" && session.status !== "pending") return;

  if (session.status === "pending") {
    await setSimulationState(sessionId, "connecting");
    try {
      const primary = scenario.sources[0]!;
      const attached = await db().source.findFirst({ where: { subjectId: session.subjectId!, providerId: primary.providerId, connected: true } });
      if (!attached) {
        await connectSimulatedSource({ sessionId, scenarioId: scenario.id, sourceKey: primary.key, providerId: primary.providerId, patientId: session.subject.patientId });
      }
      const granted = session.categories.filter((category) => (scenario.consentCategories as string[]).includes(category));
      await completeSession(sessionId, granted);
    } catch (error) {
      // A concurrent resume of the same simulation may have completed the session first: that is not a failure.
      const now = await db().connectSession.findUniqueOrThrow({ where: { id: sessionId }, select: { status: true } });
      if (now.status === "completed") return continueSimulation(sessionId);
      log.warn({ sessionId, err: error instanceof Error ? error.message : String(error) }, "sandbox simulation failed while connecting");
      await setSimulationState(sessionId, "failed", failureCodeOf(error));
      return;
    }
  }
  await setSimulationState(sessionId, "importing");
  try {
    await sendJob(QUEUE.sandboxSimulation, { sessionId }, { singletonKey: sessionId });
  } catch (error) {
    // The session stays `importing`; simulating again with the same scenario queues the job again.
    log.warn({ sessionId, err: error instanceof Error ? error.message : String(error) }, "could not queue the sandbox simulation job");
  }
}
