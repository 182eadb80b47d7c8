import { effectiveStatus } from "@/lib/consent";
import { db } from "@/lib/db";
import { idPattern } from "@/lib/ids";

const SUBJECT_ID = idPattern("u_");

/** Live subjects one page of the list shows (newest first). */
export const LIVE_SUBJECTS_PAGE = 50;

/**
 * Why a live source has no next sync, when it has none. Continuous sync (lib/imports/continuous-sync.ts) keeps a
 * source on the schedule only while all of these hold; the first that fails is the reason shown.
 */
export type ScheduleState =
  | { kind: "scheduled"; at: Date }
  | { kind: "pending" }
  | { kind: "stopped"; reason: "one_time" | "suspended" | "disconnected" | "consent_revoked" | "consent_expired" | "no_consent" };

export type LiveSourceView = {
  id: string;
  providerName: string;
  syncStatus: string;
  lastSyncedAt: Date | null;
  schedule: ScheduleState;
  /** Scheduled imports that failed in a row (the schedule backs off on them). */
  syncFailures: number;
  /** The last failure's code (what `sync.failed` carried) and its message, which never holds a token or record content. */
  lastError: { code: string; message: string } | null;
};

export type LiveSubjectView = {
  id: string;
  createdAt: Date;
  receipt: { id: string; status: "active" | "revoked" | "expired"; categories: string[]; grantedAt: Date; expiresAt: Date; revokedAt: Date | null; purgedAt: Date | null; deletionRequestedAt: Date | null } | null;
  sources: LiveSourceView[];
};

/** `code: message`, as the import stores a failure (lib/imports/run-source-import.ts). */
function splitError(lastError: string | null): LiveSourceView["lastError"] {
  if (!lastError) return null;
  const at = lastError.indexOf(": ");
  return at > 0 ? { code: lastError.slice(0, at), message: lastError.slice(at + 2) } : { code: lastError, message: "" };
}

function scheduleOf(
  source: { connected: boolean; nextSyncAt: Date | null },
  application: { syncMode: string; status: string },
  receipt: LiveSubjectView["receipt"],
): ScheduleState {
  if (source.nextSyncAt) return { kind: "scheduled", at: source.nextSyncAt };
  if (application.syncMode !== "continuous") return { kind: "stopped", reason: "one_time" };
  if (application.status === "suspended") return { kind: "stopped", reason: "suspended" };
  if (!source.connected) return { kind: "stopped", reason: "disconnected" };
  if (!receipt) return { kind: "stopped", reason: "no_consent" };
  if (receipt.status === "revoked") return { kind: "stopped", reason: "consent_revoked" };
  if (receipt.status === "expired") return { kind: "stopped", reason: "consent_expired" };
  // In scope, and the next pass of the job (every minute) gives it its time.
  return { kind: "pending" };
}

/**
 * The application's live subjects as the dashboard shows them: each subject's consent and, per source, its sync
 * state and schedule. Deliberately no record, no count of records per category, no demographics and no id the
 * health system knows the patient by: a team member debugging an integration needs to know whether data flows and
 * why not, not what it says (the application reads the records through the API, under the patient's consent).
 * Never another application's subjects, never sandbox ones; `subjectId` narrows it to one, `before` (a subject id) pages on.
 */
export async function liveSubjectViews(applicationId: string, options: { subjectId?: string; before?: string; limit?: number } = {}): Promise<LiveSubjectView[]> {
  const application = await db().application.findUniqueOrThrow({ where: { id: applicationId }, select: { syncMode: true, status: true } });
  // Paging on from a subject of this list: older than it (ties broken by id). An id that is not one starts over.
  const after =
    options.before && SUBJECT_ID.test(options.before)
      ? await db().subject.findFirst({ where: { id: options.before, applicationId, environment: "live" }, select: { id: true, createdAt: true } })
      : null;
  const subjects = await db().subject.findMany({
    where: {
      applicationId,
      environment: "live",
      ...(options.subjectId !== undefined ? { id: options.subjectId } : {}),
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit ?? LIVE_SUBJECTS_PAGE,
    select: {
      id: true,
      createdAt: true,
      consentReceipts: {
        orderBy: [{ grantedAt: "desc" }, { id: "desc" }],
        take: 1,
        select: { id: true, status: true, categories: true, grantedAt: true, expiresAt: true, revokedAt: true, purgedAt: true, deletionRequestedAt: true },
      },
      sources: {
        orderBy: { createdAt: "asc" },
        select: { id: true, connected: true, syncStatus: true, lastSyncedAt: true, nextSyncAt: true, syncFailures: true, lastError: true, provider: { select: { name: true } } },
      },
    },
  });
  return subjects.map((subject) => {
    const latest = subject.consentReceipts[0];
    // As of now, as the API reads it: a receipt past its expiry is expired before the worker marks it.
    const receipt = latest ? { ...latest, status: effectiveStatus(latest) } : null;
    return {
      id: subject.id,
      createdAt: subject.createdAt,
      receipt,
      sources: subject.sources.map((source) => ({
        id: source.id,
        providerName: source.provider.name,
        syncStatus: source.syncStatus,
        lastSyncedAt: source.lastSyncedAt,
        schedule: scheduleOf(source, application, receipt),
        syncFailures: source.syncFailures,
        lastError: splitError(source.lastError),
      })),
    };
  });
}

/** One live subject of the application as the dashboard shows it, or null when it is not one. */
export async function liveSubjectView(applicationId: string, subjectId: string): Promise<LiveSubjectView | null> {
  // A malformed id (a NUL byte would make PostgreSQL refuse the query) names no subject.
  if (!SUBJECT_ID.test(subjectId)) return null;
  const [view] = await liveSubjectViews(applicationId, { subjectId, limit: 1 });
  return view ?? null;
}
