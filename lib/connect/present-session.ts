import { db } from "@/lib/db";
import { presentFidelityReport } from "@/lib/records";
import { sourceWarningCode } from "@/lib/sources";
import { idPattern } from "@/lib/ids";
import { linkToken } from "./link-tokens";
import type { ConnectSessionResource } from "./schemas";

const SESSION_ID = idPattern("cs_");

/** Everything a session resource shows, loaded in one query. */
export async function loadSession(where: { id: string; applicationId?: string; environment?: "sandbox" | "live" }) {
  // Ids reach here from URLs (the dashboard's sandbox pages): one not shaped like a session id names none, and is not
  // sent to the database (PostgreSQL refuses a NUL byte with an error).
  if (!SESSION_ID.test(where.id)) return null;
  const session = await db().connectSession.findFirst({
    where,
    include: {
      consentReceipts: { orderBy: { grantedAt: "desc" }, take: 1, select: { id: true } },
      sources: {
        orderBy: { createdAt: "asc" },
        include: {
          provider: { select: { name: true } },
          // The latest completed import's counts: a re-import that is running (or failed) has none yet, and the
          // records the last one wrote are still there.
          imports: { where: { status: "completed" }, orderBy: { startedAt: "desc" }, take: 1, select: { recordCounts: true, skipCounts: true } },
        },
      },
    },
  });
  if (!session) return null;
  return { ...session, reports: await latestReports(session.sources.map((source) => source.id)) };
}
export type LoadedSession = NonNullable<Awaited<ReturnType<typeof loadSession>>>;

/**
 * Each source's latest completed import (whose fidelity report its `sources[]` entry carries: one running or failed
 * has none), by source id.
 */
export async function latestReports(sourceIds: string[]) {
  if (sourceIds.length === 0) return new Map<string, never>();
  const rows = await db().sourceImport.findMany({
    where: { sourceId: { in: sourceIds }, status: "completed" },
    orderBy: [{ sourceId: "asc" }, { startedAt: "desc" }],
    distinct: ["sourceId"],
    select: { id: true, sourceId: true, finishedAt: true, recordCounts: true, fidelity: true },
  });
  return new Map(rows.map((row) => [row.sourceId, row]));
}

/** A pending session past its expiry reads as expired before the lifecycle cycle marks it. */
export function effectiveSessionStatus(session: { status: LoadedSession["status"]; expiresAt: Date }, now = new Date()) {
  return session.status === "pending" && session.expiresAt <= now ? "expired" : session.status;
}

/** The sum of an import's per-category (or per-reason) counts, as stored in SourceImport. */
export function countTotal(counts: unknown): number {
  return Object.values((counts ?? {}) as Record<string, number>).reduce((sum, value) => sum + (typeof value === "number" ? value : 0), 0);
}

export function connectUrl(origin: string, sessionId: string): string {
  return `${origin}/connect/${linkToken("session", sessionId)}`;
}

export function presentSession(session: LoadedSession, origin: string, now = new Date()): ConnectSessionResource {
  return {
    object: "connect_session",
    id: session.id,
    status: effectiveSessionStatus(session, now),
    environment: session.environment,
    categories: session.categories as ConnectSessionResource["categories"],
    grantedCategories: session.grantedCategories as ConnectSessionResource["grantedCategories"],
    externalUserId: session.externalUserId,
    connectUrl: connectUrl(origin, session.id),
    redirectUrl: session.redirectUrl,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    completedAt: session.completedAt?.toISOString() ?? null,
    // The subject exists from the patient's first sign-in, but belongs to the application only once they consent.
    subject: session.status === "completed" ? session.subjectId : null,
    receiptId: session.consentReceipts[0]?.id ?? null,
    sources: session.sources.map((source) => ({
      sourceId: source.id,
      providerId: source.providerId,
      providerName: source.provider.name,
      status: source.syncStatus,
      recordCount: countTotal(source.imports[0]?.recordCounts),
      skippedCount: countTotal(source.imports[0]?.skipCounts),
      fidelity: presentFidelityReport(session.reports.get(source.id)),
      error: source.lastError,
      errorCode: sourceWarningCode(source.lastError),
      lastSyncedAt: source.lastSyncedAt?.toISOString() ?? null,
    })),
    simulation: session.simulationScenario
      ? { scenario: session.simulationScenario, state: session.simulationState ?? "queued", failureCode: session.simulationFailureCode }
      : null,
  };
}
