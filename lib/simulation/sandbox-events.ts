import { requireSandbox, type KeyAuth } from "@/lib/auth";
import { expireReceiptNow } from "@/lib/consent";
import { db } from "@/lib/db";
import { advanceEhrPatientPhase, simulatedEhrPatientKey } from "@/lib/ehr";
import { ApiError } from "@/lib/http";
import { importSource } from "@/lib/imports";
import { findScenario, type SandboxControl } from "@/lib/sandbox";
import { revokeAsPatient } from "./run-simulation";
import { SANDBOX_EVENT_TYPES, type SandboxEventResult } from "./schemas";

const isEventType = (type: string): type is SandboxControl => (SANDBOX_EVENT_TYPES as readonly string[]).includes(type);

/**
 * POST /sandbox/subjects/{subject}/events: applies one sandbox control to a synthetic user this application's
 * simulation created. Source controls act on the user's connected sources (or the one `source` names), on that
 * patient's own EHR instance, and import now; consent controls act on the user's active receipts.
 */
export async function triggerSandboxEvent(key: KeyAuth, subjectId: string, body: { type: string; source?: string | undefined }, now = new Date()): Promise<SandboxEventResult> {
  requireSandbox(key);
  return applySubjectControl(key.application.id, subjectId, body, now);
}

/** Applies a sandbox control to one of the application's synthetic users (a conformance run advances its source so). */
export async function applySubjectControl(applicationId: string, subjectId: string, body: { type: string; source?: string | undefined }, now = new Date()): Promise<SandboxEventResult> {
  if (!isEventType(body.type)) throw new ApiError("invalid_event_type", `Unknown event type ${body.type}; use one of ${SANDBOX_EVENT_TYPES.join(", ")}.`);
  const type = body.type;
  const subject = await db().subject.findFirst({
    where: { id: subjectId, applicationId, environment: "sandbox", patient: { syntheticForApplicationId: applicationId } },
    include: { patient: true, sources: true },
  });
  const scenario = subject ? findScenario(subject.patient.scenario ?? "") : undefined;
  if (!subject || !scenario) throw new ApiError("not_found", `No synthetic user ${subjectId} created by this application's simulation.`);
  if (!scenario.controls.includes(type)) throw new ApiError("control_unsupported", `The ${scenario.id} scenario does not support ${type}; it supports ${scenario.controls.join(", ") || "no controls"}.`);

  let specs = scenario.sources;
  if (body.source !== undefined) {
    const named = body.source;
    const stored = subject.sources.find((source) => source.id === named);
    specs = specs.filter((spec) => spec.key === named || spec.providerId === named || stored?.providerId === spec.providerId);
    if (specs.length === 0) throw new ApiError("invalid_source", `This user has no source ${named}; it has ${scenario.sources.map((spec) => spec.key).join(", ")}.`);
  }
  const result: SandboxEventResult = { object: "sandbox_event", type, subject: subject.id, sources: [], receipts: [] };

  if (type === "consent.revoke") {
    const revoked = await revokeAsPatient(subject.id, "patient", now);
    result.receipts = revoked.map((receipt) => ({ receiptId: receipt.id, status: "revoked", expiresAt: receipt.expiresAt.toISOString() }));
    return result;
  }
  if (type === "consent.expire") {
    const active = await db().consentReceipt.findMany({ where: { subjectId: subject.id, status: "active", expiresAt: { gt: now } } });
    for (const receipt of active) {
      if (await expireReceiptNow(receipt.id, now)) result.receipts.push({ receiptId: receipt.id, status: "expired", expiresAt: now.toISOString() });
    }
    return result;
  }

  const targets = specs.flatMap((spec) => {
    const source = subject.sources.find((candidate) => candidate.providerId === spec.providerId && candidate.connected);
    return source ? [{ spec, source }] : [];
  });
  if (targets.length === 0) throw new ApiError("subject_not_connected", `The user's ${specs.map((spec) => spec.key).join(" and ")} source is not connected yet; poll the session's simulation.state.`);
  for (const { spec, source } of targets) {
    let phase = source.phase;
    if (type === "records.advance") {
      phase = await advanceEhrPatientPhase(spec.providerId, simulatedEhrPatientKey(scenario.id, spec.key, subject.patientId));
      await db().source.update({ where: { id: source.id }, data: { phase } });
    } else {
      await db().source.update({ where: { id: source.id }, data: { failNextImport: true } });
    }
    // The import runs now; a failure (source.fail's purpose) is reported on the source and by `sync.failed`.
    await importSource(source.id).catch(() => undefined);
    const after = await db().source.findUniqueOrThrow({ where: { id: source.id } });
    result.sources.push({ sourceId: after.id, sourceKey: spec.key, providerId: after.providerId, phase, status: after.syncStatus, error: after.lastError });
  }
  return result;
}
