import { db, Prisma } from "@/lib/db";
import type { ImportTrigger } from "./run-source-import";

/**
 * One import of a source as its history shows it: when it ran, how it ended (a failure's code and message, which
 * never hold a token or record content: the SMART client's errors name the provider and the HTTP status), what it
 * read and what it changed. Nothing of the records themselves.
 */
export type ImportHistoryEntry = {
  id: string;
  sourceId: string;
  trigger: ImportTrigger;
  status: "running" | "completed" | "failed";
  code: string | null;
  message: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  resourcesRead: number;
  /** Records the import wrote or removed (upserts + deletes); unchanged ones are not counted. */
  recordsChanged: number;
};

/** Imports the subject pages show per source, newest first. */
export const SOURCE_HISTORY_LENGTH = 10;

const ENTRY_FIELDS = {
  id: true,
  sourceId: true,
  trigger: true,
  status: true,
  code: true,
  error: true,
  startedAt: true,
  finishedAt: true,
  resourcesRead: true,
  upserts: true,
  deletes: true,
} as const satisfies Prisma.SourceImportSelect;

function present(row: Prisma.SourceImportGetPayload<{ select: typeof ENTRY_FIELDS }>): ImportHistoryEntry {
  // The stored error is `code: message` (run-source-import.ts); the history shows them apart.
  const code = row.code ?? (row.error ? row.error.split(": ", 1)[0]! : null);
  const message = row.error && code && row.error.startsWith(`${code}: `) ? row.error.slice(code.length + 2) : row.error === code ? null : row.error;
  return {
    id: row.id,
    sourceId: row.sourceId,
    trigger: row.trigger as ImportTrigger,
    status: row.status,
    code,
    message,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    durationMs: row.finishedAt ? row.finishedAt.getTime() - row.startedAt.getTime() : null,
    resourcesRead: row.resourcesRead,
    recordsChanged: row.upserts + row.deletes,
  };
}

/** Each source's latest imports (at most `length`, newest first), by source id; a source with none maps to []. */
export async function sourceImportHistory(sourceIds: readonly string[], length = SOURCE_HISTORY_LENGTH): Promise<Map<string, ImportHistoryEntry[]>> {
  const histories = await Promise.all(
    sourceIds.map((sourceId) => db().sourceImport.findMany({ where: { sourceId }, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: length, select: ENTRY_FIELDS })),
  );
  return new Map(sourceIds.map((sourceId, index) => [sourceId, histories[index]!.map(present)]));
}

/** A failed import as the operator's provider page lists it: which application's subject, and why. */
export type ProviderFailure = ImportHistoryEntry & { subjectId: string; applicationName: string };

/** One provider's syncs across every subject over the window: how many ended which way, and the latest failures. */
export type ProviderSyncSummary = {
  completed: number;
  failed: number;
  running: number;
  /** completed / (completed + failed), or null when none ended in the window. */
  successRate: number | null;
  lastFailures: ProviderFailure[];
  /** Sources a re-run of the provider's syncs would import now (connected, consent active, application running). */
  rerunnable: number;
};

/** The window the provider page's counts cover. */
export const PROVIDER_SYNC_WINDOW_DAYS = 7;
/** Failures the provider page lists per provider. */
export const PROVIDER_FAILURES_SHOWN = 5;

/**
 * The sources a re-run may import now: connected, whose subject's newest consent receipt is active and unexpired
 * and whose application is not suspended. A revoked or expired share is never read again, whoever asks.
 */
export function rerunnableSources(now: Date): Prisma.SourceWhereInput {
  return {
    connected: true,
    subject: {
      application: { status: { not: "suspended" } },
      consentReceipts: { some: { status: "active", expiresAt: { gt: now } } },
    },
  };
}

/**
 * Per provider (by id): its imports over the last PROVIDER_SYNC_WINDOW_DAYS across all subjects and applications,
 * and its latest failures. For the operator's provider directory.
 */
export async function providerSyncSummaries(providerIds: readonly string[], now = new Date()): Promise<Map<string, ProviderSyncSummary>> {
  const summaries = new Map<string, ProviderSyncSummary>();
  if (providerIds.length === 0) return summaries;
  const since = new Date(now.getTime() - PROVIDER_SYNC_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const counts = await db().$queryRaw<{ providerId: string; status: string; count: bigint }[]>`
    SELECT s."providerId", i.status::text AS status, count(*) AS count
    FROM "SourceImport" i JOIN "Source" s ON s.id = i."sourceId"
    WHERE i."startedAt" >= ${since} AND s."providerId" IN (${Prisma.join([...providerIds])})
    GROUP BY s."providerId", i.status`;
  const [failures, rerunnable] = await Promise.all([
    Promise.all(
      providerIds.map((providerId) =>
        db().sourceImport.findMany({
          where: { status: "failed", source: { providerId } },
          orderBy: [{ startedAt: "desc" }, { id: "desc" }],
          take: PROVIDER_FAILURES_SHOWN,
          select: { ...ENTRY_FIELDS, subjectId: true, source: { select: { subject: { select: { application: { select: { name: true } } } } } } },
        }),
      ),
    ),
    Promise.all(providerIds.map((providerId) => db().source.count({ where: { providerId, ...rerunnableSources(now) } }))),
  ]);
  providerIds.forEach((providerId, index) => {
    const of = (status: string) => Number(counts.find((row) => row.providerId === providerId && row.status === status)?.count ?? 0);
    const completed = of("completed");
    const failed = of("failed");
    summaries.set(providerId, {
      completed,
      failed,
      running: of("running"),
      successRate: completed + failed > 0 ? completed / (completed + failed) : null,
      lastFailures: failures[index]!.map((row) => ({ ...present(row), subjectId: row.subjectId, applicationName: row.source.subject.application.name })),
      rerunnable: rerunnable[index]!,
    });
  });
  return summaries;
}
