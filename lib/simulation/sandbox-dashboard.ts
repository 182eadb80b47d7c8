import { effectiveStatus } from "@/lib/consent";
import type { KeyAuth } from "@/lib/auth";
import { db } from "@/lib/db";
import { categorySchema, pageCursor, readCategoryPage, type Category, type NormalizedRecord } from "@/lib/records";

/**
 * The application's sandbox as a caller of the sandbox operations (createSession, simulateSession,
 * triggerSandboxEvent, readSession take a KeyAuth): what a sandbox key of the application would be, for the
 * dashboard, which acts as the signed-in developer and holds no key. Its `apiKeyId` names no key: requests made
 * with it are not keyed requests and are not in the request log. The caller must have checked `sandbox.use`.
 */
export function dashboardSandboxAuth(application: KeyAuth["application"]): KeyAuth {
  return {
    kind: "key",
    apiKeyId: "dashboard",
    environment: "sandbox",
    conformanceRunId: null,
    application: {
      id: application.id,
      name: application.name,
      status: application.status,
      productionEnabled: application.productionEnabled,
      categoryAllowlist: [...application.categoryAllowlist],
      syncMode: application.syncMode,
    },
  };
}

export type SandboxSubject = {
  id: string;
  createdAt: Date;
  scenario: string | null;
  /** When the synthetic patient and its records are purged. */
  purgeAt: Date | null;
  /** The newest receipt, whatever its status (null if the subject never completed a session). */
  receipt: { id: string; status: "active" | "revoked" | "expired"; categories: string[]; grantedAt: Date; expiresAt: Date; revokedAt: Date | null; revokedReason: string | null; purgedAt: Date | null; deletionRequestedAt: Date | null } | null;
  sources: Array<{ id: string; providerName: string; sourceKey: string | null; syncStatus: "pending" | "syncing" | "synced" | "failed" | "partial"; phase: number; lastSyncedAt: Date | null; lastError: string | null }>;
  /** Live records per category. */
  recordCounts: Partial<Record<Category, number>>;
};

/**
 * The application's sandbox subjects, newest first, with their receipt, each source's sync state and record counts;
 * `subjectId` narrows the list to that one subject (empty when it is not this application's sandbox subject).
 */
export async function listSandboxSubjects(applicationId: string, options: { limit?: number; subjectId?: string } = {}): Promise<SandboxSubject[]> {
  const subjects = await db().subject.findMany({
    where: { applicationId, environment: "sandbox", ...(options.subjectId !== undefined ? { id: options.subjectId } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit ?? 100,
    select: {
      id: true,
      createdAt: true,
      patient: { select: { scenario: true, purgeAt: true } },
      consentReceipts: {
        orderBy: [{ grantedAt: "desc" }, { id: "desc" }],
        take: 1,
        select: { id: true, status: true, categories: true, grantedAt: true, expiresAt: true, revokedAt: true, revokedReason: true, purgedAt: true, deletionRequestedAt: true },
      },
      sources: {
        orderBy: { createdAt: "asc" },
        select: { id: true, sourceKey: true, syncStatus: true, phase: true, lastSyncedAt: true, lastError: true, provider: { select: { name: true } } },
      },
    },
  });
  const counts = await db().record.groupBy({
    by: ["subjectId", "category"],
    where: { subjectId: { in: subjects.map((subject) => subject.id) }, deletedAt: null },
    _count: { _all: true },
  });
  return subjects.map((subject) => ({
    id: subject.id,
    createdAt: subject.createdAt,
    scenario: subject.patient.scenario,
    purgeAt: subject.patient.purgeAt,
    // As of now, as the API reads it: an expiry set to now (consent.expire) is "expired" before the worker marks it.
    receipt: subject.consentReceipts[0] ? { ...subject.consentReceipts[0], status: effectiveStatus(subject.consentReceipts[0]) } : null,
    sources: subject.sources.map(({ provider, ...source }) => ({ ...source, providerName: provider.name })),
    recordCounts: Object.fromEntries(counts.filter((row) => row.subjectId === subject.id).map((row) => [row.category, row._count._all])),
  }));
}

/**
 * One page of a sandbox subject's records in one category, newest clinical time first, for the dashboard's tables
 * (each record is the normalized JSON the API serves). Null when the subject is not this application's sandbox
 * subject. Shown whatever the receipt says: it is the developer's own synthetic data, and the receipt is listed
 * beside it (the API itself refuses reads without an active receipt).
 */
export async function readSandboxRecords(input: { applicationId: string; subjectId: string; category: string; cursor?: string; limit?: number }): Promise<{
  records: NormalizedRecord[];
  nextCursor: string | null;
} | null> {
  const category = categorySchema.parse(input.category);
  const subject = await db().subject.findFirst({ where: { id: input.subjectId, applicationId: input.applicationId, environment: "sandbox" }, select: { id: true } });
  if (!subject) return null;
  const scope = { applicationId: input.applicationId, environment: "sandbox" as const, subjectId: subject.id };
  const after = input.cursor ? pageCursor.decode(scope, category, input.cursor) : null;
  const page = await readCategoryPage(subject.id, category, Math.min(Math.max(input.limit ?? 50, 1), 100), after);
  return { records: JSON.parse(page.records.text) as NormalizedRecord[], nextCursor: page.next ? pageCursor.encode(scope, category, page.next) : null };
}
