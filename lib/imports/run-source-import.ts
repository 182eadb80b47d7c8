import type { FhirResource } from "fhir/r4";
import { db, Prisma } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { applySourceFacts, normalizeResources, summarizeNormalization, type ApplyOutcome } from "@/lib/records";

/** Reads a source's current resources from its health system (the SMART on FHIR client, for sandbox and live). */
export type FetchSourceResources = (sourceId: string) => Promise<FhirResource[]>;

export type ImportResult = { importId: string; outcome: ApplyOutcome };

/**
 * One import of one source: fetch everything, normalize it under the subject, and write it through the records
 * write path, which merges it with the subject's other sources. Idempotent: a retry, or a rerun after a worker died
 * mid-import, rewrites nothing that is already stored and loses nothing. The import's counts (records per
 * category, skips per reason, what changed) are kept with it.
 */
export async function runSourceImport(sourceId: string, fetchResources: FetchSourceResources, now = () => new Date()): Promise<ImportResult> {
  const source = await db().source.findUniqueOrThrow({
    where: { id: sourceId },
    include: {
      provider: { select: { name: true } },
      subject: { select: { applicationId: true, environment: true, application: { select: { syncMode: true } } } },
    },
  });
  const continuous = source.subject.application.syncMode === "continuous";
  // An import left running by a worker that died is over: this attempt replaces it.
  await db().sourceImport.updateMany({ where: { sourceId, status: "running" }, data: { status: "failed", error: "interrupted", finishedAt: now() } });
  const importId = newId("imp_");
  await db().$transaction([
    db().sourceImport.create({ data: { id: importId, sourceId, subjectId: source.subjectId } }),
    db().source.update({ where: { id: sourceId }, data: { syncStatus: "syncing", lastError: null } }),
  ]);

  try {
    // The sandbox's `source.fail`: this one import fails as an unreachable health system would; the flag is spent.
    const failed = await db().source.updateMany({ where: { id: sourceId, failNextImport: true }, data: { failNextImport: false } });
    if (failed.count > 0) throw new Error("source_unavailable: the health system could not be reached (sandbox source.fail)");
    const resources = await fetchResources(sourceId);
    const result = normalizeResources(resources, { sourceId, sourceName: source.provider.name }, source.subjectId);
    const summary = summarizeNormalization(result);
    const outcome = await applySourceFacts({ subjectId: source.subjectId, sourceId, facts: result.facts });
    const finishedAt = now();
    await db().$transaction([
      // Conditional: an import another attempt already declared interrupted stays so, even if it finishes after all.
      db().sourceImport.updateMany({
        where: { id: importId, status: "running" },
        data: {
          status: "completed",
          recordCounts: summary.records as Prisma.InputJsonValue,
          skipCounts: summary.skipped as Prisma.InputJsonValue,
          upserts: outcome.upserts,
          deletes: outcome.deletes,
          unchanged: outcome.unchanged,
          finishedAt,
        },
      }),
      db().source.update({
        where: { id: sourceId },
        data: { syncStatus: "synced", lastSyncedAt: finishedAt, resourceCounts: countByType(resources) as Prisma.InputJsonValue },
      }),
    ]);
    if (continuous && outcome.upserts + outcome.deletes > 0) {
      await recordEvent({
        applicationId: source.subject.applicationId,
        environment: source.subject.environment,
        type: "records.updated",
        data: {
          subject: source.subjectId,
          sourceId,
          providerId: source.providerId,
          importId,
          categories: outcome.categories,
          upserts: outcome.upserts,
          deletes: outcome.deletes,
        },
      });
    }
    return { importId, outcome };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log.warn({ sourceId, importId, err: reason }, "source import failed");
    await db().$transaction([
      db().sourceImport.updateMany({ where: { id: importId, status: "running" }, data: { status: "failed", error: reason.slice(0, 500), finishedAt: now() } }),
      // Records from an earlier import stay; the source says it is behind.
      db().source.update({ where: { id: sourceId }, data: { syncStatus: source.lastSyncedAt ? "partial" : "failed", lastError: reason.slice(0, 500) } }),
    ]);
    if (continuous) {
      // The reason is the client's own message (never a token or record content); the code is what clients branch on.
      await recordEvent({
        applicationId: source.subject.applicationId,
        environment: source.subject.environment,
        type: "sync.failed",
        data: { subject: source.subjectId, sourceId, providerId: source.providerId, importId, code: failureCode(reason) },
      });
    }
    throw error;
  }
}

function failureCode(reason: string): string {
  const code = /^([a-z_]+):/.exec(reason)?.[1];
  return code ?? "import_failed";
}

function countByType(resources: readonly FhirResource[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const resource of resources) counts[resource.resourceType] = (counts[resource.resourceType] ?? 0) + 1;
  return counts;
}
