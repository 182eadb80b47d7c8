import { recordAudit, memberActor } from "@/lib/audit";
import { db, withTransaction } from "@/lib/db";
import { ApiError, consumeRateLimit, type RateLimitPolicy } from "@/lib/http";
import { idPattern } from "@/lib/ids";
import { log } from "@/lib/log";
import { operatorActor, requireOperator } from "@/lib/operators";
import { QUEUE, sendJob, sendJobs } from "@/lib/queue";
import { NotFoundError, requirePermission, TeamError, type ApplicationAccess } from "@/lib/team";
import { rerunnableSources } from "./import-history";

/**
 * Re-runs a team may ask for, per application: ten every ten minutes. Each re-run reads the patient's records
 * from their health system again; the schedule (and the operator, after fixing a provider) does the rest.
 */
export const RERUN_POLICY: RateLimitPolicy = { name: "source_rerun", points: 10, windowSeconds: 600 };

const SOURCE_ID = idPattern("src_");
const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

type RerunSource = { id: string; subjectId: string; applicationId: string; providerName: string };

/** The source when a re-run may import it now, or a refusal that names its health system and says why not. */
async function eligibleSource(where: { id: string; applicationId?: string }, now: Date): Promise<RerunSource> {
  const row = await db().source.findFirst({
    where: { id: where.id, ...(where.applicationId ? { subject: { applicationId: where.applicationId } } : {}) },
    select: { id: true, subjectId: true, provider: { select: { name: true, disabledAt: true } }, subject: { select: { applicationId: true } } },
  });
  if (!row) throw new NotFoundError("That source");
  const providerName = row.provider.name;
  if (row.provider.disabledAt) throw new TeamError("invalid_input", `${providerName} is disabled in the provider directory: its syncs cannot run until an operator enables it.`);
  const eligible = await db().source.count({ where: { id: row.id, ...rerunnableSources(now) } });
  if (eligible === 0) {
    throw new TeamError(
      "invalid_input",
      `${providerName} cannot be synced for this subject now: the source is disconnected, the patient's consent is not active, or the application is suspended.`,
    );
  }
  const running = await db().sourceImport.count({ where: { sourceId: row.id, status: "running", startedAt: { gt: new Date(now.getTime() - 10 * 60 * 1000) } } });
  if (running > 0) throw new TeamError("invalid_input", `${providerName} is being synced for this subject right now; its history shows the result when it ends.`);
  return { id: row.id, subjectId: row.subjectId, applicationId: row.subject.applicationId, providerName };
}

const enqueue = (source: { id: string }) => sendJob(QUEUE.sourceImport, { sourceId: source.id, trigger: "rerun" }, { singletonKey: source.id });

/**
 * A team member re-runs one source of one of their application's subjects (live or sandbox) now: `application.manage`
 * (owners and members, as for webhook re-sends), rate-limited per application (RERUN_POLICY) and audited.
 */
export async function rerunApplicationSource(access: ApplicationAccess, sourceId: unknown, now = new Date()): Promise<{ providerName: string }> {
  requirePermission(access, "application.manage");
  if (typeof sourceId !== "string" || !SOURCE_ID.test(sourceId)) throw new NotFoundError("That source");
  const source = await eligibleSource({ id: sourceId, applicationId: access.application.id }, now);
  try {
    await consumeRateLimit(RERUN_POLICY, access.application.id);
  } catch (error) {
    if (error instanceof ApiError && error.code === "rate_limited") {
      throw new TeamError("invalid_input", `Too many re-runs for this application: at most ${RERUN_POLICY.points} every ${RERUN_POLICY.windowSeconds / 60} minutes. Try again later.`);
    }
    throw error;
  }
  await withTransaction("ReadCommitted", (tx) =>
    recordAudit(tx, { action: "source.sync_rerun", actor: memberActor(access), applicationId: source.applicationId, targetType: "source", targetId: source.id, after: { subject: source.subjectId, provider: source.providerName } }),
  );
  await enqueue(source);
  return { providerName: source.providerName };
}

/** An operator re-runs one source's sync, whatever its application (audited, not rate-limited). */
export async function rerunSourceAsOperator(operatorId: string, sourceId: unknown, now = new Date()): Promise<{ providerName: string }> {
  const operator = await requireOperator(operatorId);
  if (typeof sourceId !== "string" || !SOURCE_ID.test(sourceId)) throw new NotFoundError("That source");
  const source = await eligibleSource({ id: sourceId }, now);
  await withTransaction("ReadCommitted", (tx) =>
    recordAudit(tx, { action: "source.sync_rerun", actor: operatorActor(operator), applicationId: source.applicationId, targetType: "source", targetId: source.id, after: { subject: source.subjectId, provider: source.providerName } }),
  );
  await enqueue(source);
  return { providerName: source.providerName };
}

/**
 * An operator re-runs every sync of one live provider, for instance after fixing its client credentials: each
 * source a re-run may import (connected, consent active, application running), whatever its last outcome, including
 * those that were waiting for the patient to sign in again (the fix may be what they were waiting for; if not,
 * they fail again as reauthorization_required and stay off the schedule). One audit entry says how many.
 */
export async function rerunProviderSyncs(operatorId: string, providerId: unknown, now = new Date()): Promise<{ providerName: string; sources: number }> {
  const operator = await requireOperator(operatorId);
  const provider = typeof providerId === "string" && PROVIDER_ID.test(providerId) ? await db().provider.findFirst({ where: { id: providerId, environment: "live" }, select: { id: true, name: true, disabledAt: true } }) : null;
  if (!provider) throw new NotFoundError("That provider");
  if (provider.disabledAt) throw new TeamError("invalid_input", `${provider.name} is disabled: enable it before re-running its syncs.`);
  const sources = await db().source.findMany({ where: { providerId: provider.id, ...rerunnableSources(now) }, select: { id: true }, orderBy: { id: "asc" } });
  if (sources.length === 0) throw new TeamError("invalid_input", `${provider.name} has no source to sync: no connected patient with active consent.`);
  await withTransaction("ReadCommitted", (tx) =>
    recordAudit(tx, { action: "provider.sync_rerun", actor: operatorActor(operator), targetType: "provider", targetId: provider.id, after: { name: provider.name, sources: sources.length } }),
  );
  await sendJobs(
    QUEUE.sourceImport,
    sources.map((source) => ({ data: { sourceId: source.id, trigger: "rerun" }, singletonKey: source.id })),
  );
  log.info({ providerId: provider.id, sources: sources.length }, "operator re-ran a provider's syncs");
  return { providerName: provider.name, sources: sources.length };
}
