import { channel } from "node:diagnostics_channel";
import type { FhirResource } from "fhir/r4";
import { db, Prisma } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { annotateSpan, inSpan } from "@/lib/tracing";
import {
  applySerializedFacts,
  CATEGORIES,
  fidelityColumn,
  PagedNormalization,
  parseCategoryList,
  summarizeNormalization,
  type ApplyOutcome,
  type Category,
  type SerializedFact,
  type SourceInfo,
} from "@/lib/records";
import { SourceError, type SourcePage } from "@/lib/sources";
import { ImportSpill, type SpilledPage } from "./import-spill";

/**
 * Reads a source's current resources of the categories shared from its health system (the SMART on FHIR client,
 * for sandbox and live): handed to `onPage` a page at a time as they arrive (each page is in the import's spill
 * when it returns), or returned at once (a fixed list, taken as given).
 */
export type FetchSourceResources = (sourceId: string, categories: readonly Category[], onPage: (page: SourcePage) => Promise<void>) => Promise<FhirResource[] | void>;

/** Wall-clock seconds of a completed import's phases: reading the source, normalizing, writing (merge included). */
export type ImportPhases = { fetch: number; normalize: number; write: number };

export type ImportResult = { importId: string; outcome: ApplyOutcome; seconds: ImportPhases };

/**
 * Where each completed import publishes its phases and sizes (`{ sourceId, importId, resources, seconds }`), for a
 * profiler or the bench to subscribe to; publishing costs nothing while nobody listens.
 */
export const importCompletedChannel = channel("chartkey.import.completed");

export type ImportAttempt = {
  /**
   * False while the import job still has retries left: a failure another attempt may get past (see
   * `failureIsTransient`) is then not reported, so `sync.failed` is sent once, when the import has finally failed.
   */
  lastAttempt?: boolean;
  now?: () => Date;
  /** What started the import, kept in its history (default `connect`). */
  trigger?: ImportTrigger;
};

/** What started an import: a Connect sign-in or sandbox event, continuous sync, or a re-run someone asked for. */
export const IMPORT_TRIGGERS = ["connect", "schedule", "rerun"] as const;
export type ImportTrigger = (typeof IMPORT_TRIGGERS)[number];

/** The code `sync.failed` and the source's `lastError` carry: the SMART client's, or `import_failed` for our own. */
function failureCode(error: unknown): string {
  return error instanceof SourceError ? error.code : "import_failed";
}

/**
 * A failure a later attempt may not meet: the health system down or overloaded, or an error of our own (a lost
 * database connection). The SMART client's other failures (tokens refused, no connection, answers that are not
 * FHIR) stay until the patient or the provider acts, so retrying them only delays the report.
 */
export function failureIsTransient(error: unknown): boolean {
  return !(error instanceof SourceError) || error.code === "source_unavailable" || error.code === "rate_limited";
}

/**
 * One import of one source: fetch everything, normalize it under the subject, and write it through the records
 * write path, which merges it with the subject's other sources. Idempotent: a retry, or a rerun after a worker died
 * mid-import, rewrites nothing that is already stored and loses nothing. The import's fidelity report (records per
 * category, skips per resource type and reason, warnings) and what it changed are kept with it.
 */
export async function runSourceImport(sourceId: string, fetchResources: FetchSourceResources, attempt: ImportAttempt = {}): Promise<ImportResult> {
  // A span per import (its statements and the SMART client's requests beneath it), each page read an event on it.
  return inSpan("source.import", { "chartkey.import.trigger": attempt.trigger ?? "connect" }, async (span) => {
    const result = await importOnce(sourceId, fetchResources, attempt, (page) => span.addEvent("page", { "chartkey.page.resources": page.resources.length }));
    span.setAttribute("chartkey.import.records_changed", result.outcome.upserts + result.outcome.deletes);
    return result;
  });
}

async function importOnce(sourceId: string, fetchResources: FetchSourceResources, attempt: ImportAttempt, onPage: (page: SourcePage) => void): Promise<ImportResult> {
  const { lastAttempt = true, now = () => new Date(), trigger = "connect" } = attempt;
  const started = performance.now();
  const source = await db().source.findUniqueOrThrow({
    where: { id: sourceId },
    include: {
      provider: { select: { name: true } },
      subject: { select: { applicationId: true, environment: true, application: { select: { syncMode: true } } } },
    },
  });
  annotateSpan({ "chartkey.provider": source.provider.name, "chartkey.environment": source.subject.environment });
  const continuous = source.subject.application.syncMode === "continuous";
  // An import left running by a worker that died is over: this attempt replaces it.
  await db().sourceImport.updateMany({ where: { sourceId, status: "running" }, data: { status: "failed", code: "interrupted", error: "interrupted", finishedAt: now() } });
  const importId = newId("imp_");
  await db().$transaction([
    db().sourceImport.create({ data: { id: importId, sourceId, subjectId: source.subjectId, trigger } }),
    db().source.update({ where: { id: sourceId }, data: { syncStatus: "syncing", lastError: null } }),
  ]);

  try {
    // The sandbox's `source.fail`: this one import fails as an unreachable health system would; the flag is spent.
    const failed = await db().source.updateMany({ where: { id: sourceId, failNextImport: true }, data: { failNextImport: false } });
    if (failed.count > 0) throw new SourceError("source_unavailable", "The health system could not be reached (sandbox source.fail).");
    const categories = await sharedCategories(source);
    const spill = new ImportSpill();
    let normalized: Awaited<ReturnType<typeof readNormalized>>;
    let outcome: ApplyOutcome;
    let writeStarted: number;
    try {
      normalized = await readNormalized(sourceId, categories, fetchResources, { sourceId, sourceName: source.provider.name }, source.subjectId, spill, onPage);
      writeStarted = performance.now();
      outcome = await applySerializedFacts({ subjectId: source.subjectId, sourceId, facts: normalized.facts, context: normalized.context, categories });
    } finally {
      spill.close();
    }
    const { summary, resourceCounts, resourceCount, read } = normalized;
    const seconds = { ...read, write: (performance.now() - writeStarted) / 1000 };
    const finishedAt = now();
    await db().$transaction([
      // Conditional: an import another attempt already declared interrupted stays so, even if it finishes after all.
      db().sourceImport.updateMany({
        where: { id: importId, status: "running" },
        data: {
          status: "completed",
          recordCounts: summary.records as Prisma.InputJsonValue,
          skipCounts: summary.skipped as Prisma.InputJsonValue,
          fidelity: fidelityColumn(summary) as Prisma.InputJsonValue,
          upserts: outcome.upserts,
          deletes: outcome.deletes,
          unchanged: outcome.unchanged,
          resourcesRead: resourceCount,
          finishedAt,
        },
      }),
      db().source.update({
        where: { id: sourceId },
        data: { syncStatus: "synced", lastSyncedAt: finishedAt, resourceCounts: resourceCounts as Prisma.InputJsonValue },
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
    const completed = { sourceId, importId, resources: resourceCount, records: normalized.written(), seconds };
    log.info(completed, "source import completed");
    countImport(source.provider.name, source.subject.environment, "completed", started, resourceCount);
    if (importCompletedChannel.hasSubscribers) importCompletedChannel.publish(completed);
    return { importId, outcome, seconds };
  } catch (error) {
    const code = failureCode(error);
    const reason = `${code}: ${error instanceof Error ? error.message : String(error)}`;
    log.warn({ sourceId, importId, err: reason }, "source import failed");
    countImport(source.provider.name, source.subject.environment, code, started);
    annotateSpan({ "chartkey.import.code": code });
    await db().$transaction([
      db().sourceImport.updateMany({ where: { id: importId, status: "running" }, data: { status: "failed", code, error: reason.slice(0, 500), finishedAt: now() } }),
      // Records from an earlier import stay; the source says it is behind.
      db().source.update({ where: { id: sourceId }, data: { syncStatus: source.lastSyncedAt ? "partial" : "failed", lastError: reason.slice(0, 500) } }),
    ]);
    if (continuous && (lastAttempt || !failureIsTransient(error))) {
      // The code is what clients branch on; the message (never a token or record content) stays on the source.
      await recordEvent({
        applicationId: source.subject.applicationId,
        environment: source.subject.environment,
        type: "sync.failed",
        data: { subject: source.subjectId, sourceId, providerId: source.providerId, importId, code },
      });
    }
    throw error;
  }
}

/** An import's end in the metrics: by provider name (operator-configured, so bounded) and outcome. */
function countImport(provider: string, environment: string, outcome: string, started: number, resources = 0): void {
  const measured = metrics();
  measured.imports.inc({ provider, environment, outcome });
  measured.importSeconds.observe({ provider, outcome }, (performance.now() - started) / 1000);
  if (resources > 0) measured.importResources.inc({ provider }, resources);
}

/**
 * What the patient shares, so what an import reads and stores: the categories of the subject's newest receipt (a
 * later consent that adds categories is imported by the next import), or, before the patient has consented, those
 * the session that attached the source asked for.
 */
async function sharedCategories(source: { subjectId: string; connectSessionId: string | null }): Promise<Category[]> {
  const receipt = await db().consentReceipt.findFirst({ where: { subjectId: source.subjectId }, orderBy: [{ grantedAt: "desc" }, { id: "desc" }], select: { categories: true } });
  if (receipt) return parseCategoryList(receipt.categories);
  const session = source.connectSessionId ? await db().connectSession.findUnique({ where: { id: source.connectSessionId }, select: { categories: true } }) : null;
  return session ? parseCategoryList(session.categories) : [...CATEGORIES];
}

/**
 * The source's resources read and normalized, page by page: each page goes to the spill as it arrives, the pages
 * are read back from it twice (PagedNormalization's index pass, then its normalizing pass, each a page at a time),
 * and the drafted records wait in the spill too; `facts` reads them back, complete and in read order, for the
 * write. Beyond the page at hand, memory holds a few fields of each resource a reference reaches (the others' wait in
 * the spill until the whole source says which are reached) and a few hundred bytes of bookkeeping per record, never
 * the source.
 */
async function readNormalized(
  sourceId: string,
  categories: readonly Category[],
  fetchResources: FetchSourceResources,
  sourceInfo: SourceInfo,
  scope: string,
  spill: ImportSpill,
  onPage: (page: SourcePage) => void,
) {
  const fetchStarted = performance.now();
  const fetched: SpilledPage[] = [];
  const returned = await fetchResources(sourceId, categories, async (page) => {
    onPage(page);
    fetched.push(...spill.appendPage(page));
  });
  if (returned) fetched.push(...spill.appendPage({ rank: Number.MAX_SAFE_INTEGER, resources: returned }, false));
  const pages = ImportSpill.settled(fetched);
  fetched.length = 0;
  const normalizeStarted = performance.now();
  const normalization = new PagedNormalization(sourceInfo, scope, spill.recordSpool());
  const resourceCounts: Record<string, number> = {};
  let resourceCount = 0;
  for (const page of spill.replay(pages)) {
    for (const resource of page) resourceCounts[resource.resourceType] = (resourceCounts[resource.resourceType] ?? 0) + 1;
    resourceCount += page.length;
    normalization.indexPage(page.map((resource) => ({ resource, fullUrl: null })));
  }
  for (const page of spill.replay(pages)) normalization.normalizePage(page.map((resource) => ({ resource, fullUrl: null })));
  const { skipped, context } = normalization.finish();
  // A type read for one category can yield another (a DiagnosticReport read for labs is a documents record).
  const summary = summarizeNormalization({ facts: normalization.factSummaries().filter((fact) => categories.includes(fact.category)), skipped, context });
  const read = { fetch: (normalizeStarted - fetchStarted) / 1000, normalize: (performance.now() - normalizeStarted) / 1000 };
  let written = 0;
  function* facts(): Generator<SerializedFact> {
    for (const fact of normalization.facts()) {
      if (!categories.includes(fact.category)) continue;
      written += 1;
      yield fact;
    }
  }
  return { facts: facts(), context: normalization.contextFacts(), summary, resourceCounts, resourceCount, read, written: () => written };
}
