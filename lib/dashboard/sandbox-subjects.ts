import { countTotal } from "@/lib/connect";
import { presentReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { CATEGORIES, type Category } from "@/lib/records";
import { findScenario, type SandboxControl } from "@/lib/sandbox";

export type SandboxSubjectSource = {
  sourceId: string;
  sourceKey: string | null;
  providerName: string;
  status: "pending" | "syncing" | "synced" | "failed" | "partial";
  phase: number;
  recordCount: number;
  error: string | null;
  lastSyncedAt: string | null;
};

export type SandboxSubject = {
  subject: string;
  scenario: string | null;
  scenarioTitle: string | null;
  createdAt: string;
  purgeAt: string | null;
  receipt: { receiptId: string; status: "active" | "revoked" | "expired"; categories: string[]; grantedAt: string; expiresAt: string } | null;
  sources: SandboxSubjectSource[];
  sessionId: string | null;
  simulation: { state: string; failureCode: string | null } | null;
  /** True for a synthetic patient a simulation created; false for one connected through the hosted flow. */
  createdBySimulation: boolean;
  /** The sandbox events the subject's scenario supports (POST /sandbox/subjects/{subject}/events); none unless simulated. */
  controls: SandboxControl[];
};

const subjectInclude = {
  patient: { select: { scenario: true, purgeAt: true, syntheticForApplicationId: true } },
  consentReceipts: { orderBy: [{ grantedAt: "desc" as const }, { id: "desc" as const }], take: 1 },
  sources: {
    orderBy: { createdAt: "asc" as const },
    include: { provider: { select: { name: true } }, imports: { orderBy: { startedAt: "desc" as const }, take: 1, select: { recordCounts: true } } },
  },
  connectSessions: { orderBy: { createdAt: "desc" as const }, take: 1, select: { id: true, simulationState: true, simulationFailureCode: true } },
};

/**
 * The application's sandbox users: synthetic patients its simulations created and those connected through the
 * hosted flow with a synthetic health system sign-in; never another application's, never a live one.
 */
const sandboxOf = (applicationId: string) => ({ applicationId, environment: "sandbox" as const });

type LoadedSubject = NonNullable<Awaited<ReturnType<typeof loadSubjects>>>[number];

function loadSubjects(where: ReturnType<typeof sandboxOf> & { id?: string }, take: number) {
  return db().subject.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take, include: subjectInclude });
}

function present(row: LoadedSubject, now: Date): SandboxSubject {
  const createdBySimulation = row.patient.syntheticForApplicationId === row.applicationId;
  const scenario = createdBySimulation ? findScenario(row.patient.scenario ?? "") : undefined;
  const receipt = row.consentReceipts[0];
  const session = row.connectSessions[0];
  return {
    subject: row.id,
    scenario: row.patient.scenario,
    scenarioTitle: scenario?.title ?? null,
    createdAt: row.createdAt.toISOString(),
    purgeAt: row.patient.purgeAt?.toISOString() ?? null,
    receipt: receipt ? pickReceipt(presentReceipt(receipt, now)) : null,
    sources: row.sources.map((source) => ({
      sourceId: source.id,
      sourceKey: source.sourceKey,
      providerName: source.provider.name,
      status: source.syncStatus,
      phase: source.phase,
      recordCount: countTotal(source.imports[0]?.recordCounts),
      error: source.lastError,
      lastSyncedAt: source.lastSyncedAt?.toISOString() ?? null,
    })),
    sessionId: session?.id ?? null,
    simulation: session?.simulationState ? { state: session.simulationState, failureCode: session.simulationFailureCode } : null,
    createdBySimulation,
    controls: scenario ? [...scenario.controls] : [],
  };
}

function pickReceipt(receipt: ReturnType<typeof presentReceipt>): SandboxSubject["receipt"] {
  return { receiptId: receipt.receiptId, status: receipt.status, categories: receipt.categories, grantedAt: receipt.grantedAt, expiresAt: receipt.expiresAt };
}

/** The application's sandbox users, newest first, with their latest receipt, sources and simulation. */
export async function listSandboxSubjects(applicationId: string, options: { limit?: number; now?: Date } = {}): Promise<SandboxSubject[]> {
  const rows = await loadSubjects(sandboxOf(applicationId), options.limit ?? 50);
  return rows.map((row) => present(row, options.now ?? new Date()));
}

/** One sandbox user of the application, or null when it is not one (another application's, a live one, none). */
export async function readSandboxSubject(applicationId: string, subjectId: string, now = new Date()): Promise<SandboxSubject | null> {
  const [row] = await loadSubjects({ ...sandboxOf(applicationId), id: subjectId }, 1);
  return row ? present(row, now) : null;
}

/** How many current (not deleted) records the sandbox user has per category, in category order. */
export async function sandboxSubjectRecordCounts(applicationId: string, subjectId: string): Promise<Record<Category, number>> {
  const rows = await db().record.groupBy({
    by: ["category"],
    where: { subjectId, deletedAt: null, subject: sandboxOf(applicationId) },
    _count: { _all: true },
  });
  const counts = Object.fromEntries(CATEGORIES.map((category) => [category, 0])) as Record<Category, number>;
  for (const row of rows) if (row.category in counts) counts[row.category as Category] = row._count._all;
  return counts;
}
