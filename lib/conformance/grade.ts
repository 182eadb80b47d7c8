import { db } from "@/lib/db";
import { FORCED_RETRY_AFTER_SECONDS, RETRY_TOLERANCE_MS, type Phase } from "./limits";
import { isRecordRead, ROUTES, succeeded, type ObservedRequest } from "./observations";
import { revocationSignal } from "./revocation-signal";
import { forcedOf, probesOf, type ProbeAnswer, type ProbeKind, type RunRow } from "./run-row";
import type { Check } from "./schemas";

type Grade = Omit<Check, "phase">;

const passed = (grade: Omit<Grade, "status" | "fix">): Grade => ({ ...grade, status: "passed", fix: null });
const inconclusive = (grade: Omit<Grade, "status" | "fix">): Grade => ({ ...grade, status: "inconclusive", fix: null });
const failed = (grade: Omit<Grade, "status">): Grade => ({ ...grade, status: "failed" });

/**
 * Grades what the run observed in one phase, up to `endAt` (when the phase ended). Reads come from the run key's
 * request log rows; the session and the probe answers from the run's own rows. Evidence holds counts, timings,
 * status codes and request ids only: the public report shows it as it is.
 */
export async function gradePhase(run: RunRow, phase: Phase, requests: ObservedRequest[], endAt: number): Promise<Check[]> {
  const seen = requests.filter((request) => request.startedAt <= endAt);
  const grades = await GRADERS[phase](run, seen, endAt);
  return grades.map((grade) => ({ ...grade, phase }));
}

const GRADERS: Record<Phase, (run: RunRow, requests: ObservedRequest[], endAt: number) => Promise<Grade[]> | Grade[]> = {
  session: gradeSession,
  rate_limits: (run, requests) => [gradeRetryAfter(run, requests), ...(run.syncMode === "continuous" ? [gradeChangeFeed(run, requests)] : [])],
  consent_revocation: gradeRevocation,
  webhook_probes: (run) => gradeProbes(probesOf(run)),
};

async function gradeSession(run: RunRow, requests: ObservedRequest[]): Promise<Grade[]> {
  const session = run.connectSessionId
    ? await db().connectSession.findUnique({ where: { id: run.connectSessionId }, select: { status: true, createdAt: true, completedAt: true, simulationState: true } })
    : null;
  const created = requests.find((request) => request.route === ROUTES.createSession && succeeded(request));
  const base = { id: "connect_session", title: "Connect session created with the run key" };
  const evidence = {
    createRequestId: created?.requestId ?? null,
    secondsToSession: session ? Math.round((session.createdAt.getTime() - run.createdAt.getTime()) / 1000) : null,
    sessionStatus: session?.status ?? null,
    simulationState: session?.simulationState ?? null,
  };
  if (session?.status === "completed") {
    return [passed({ ...base, summary: "The integration created a Connect session with the run key, and it completed as the scenario's patient.", evidence })];
  }
  return [inconclusive({ ...base, summary: "No Connect session created with the run key completed.", evidence })];
}

/** Each forced 429 against the next read of the same route and subject: it must start Retry-After or more later. */
function gradeRetryAfter(run: RunRow, requests: ObservedRequest[]): Grade {
  const base = { id: "retry_after", title: "Forced 429s retried no sooner than Retry-After" };
  const forced = forcedOf(run);
  if (forced.length === 0) {
    return inconclusive({ ...base, summary: "No record read was made while the run could force a 429.", evidence: { forcedCount: 0 } });
  }
  const retries = forced.map((entry) => {
    const refused = requests.find((request) => request.requestId === entry.requestId);
    const answeredAt = refused?.at ?? Date.parse(entry.at);
    const retry = requests.find(
      (request) =>
        isRecordRead(request) &&
        request.requestId !== entry.requestId &&
        request.startedAt >= answeredAt &&
        (!refused || (request.route === refused.route && request.subjectId === refused.subjectId)),
    );
    return { entry, retry, waitedMs: retry ? retry.startedAt - answeredAt : null };
  });
  const early = retries.filter((retry) => retry.waitedMs !== null && retry.waitedMs < retry.entry.retryAfterSeconds * 1000 - RETRY_TOLERANCE_MS);
  const evidence = {
    forcedCount: forced.length,
    retryAfterSeconds: forced.map((entry) => entry.retryAfterSeconds),
    waitedMs: retries.map((retry) => retry.waitedMs),
    forcedRequestIds: forced.map((entry) => entry.requestId),
    retryRequestIds: retries.map((retry) => retry.retry?.requestId ?? null),
  };
  if (early.length > 0) {
    return failed({
      ...base,
      summary: `${early.length} of ${forced.length} forced 429s were retried after ${early.map((retry) => `${retry.waitedMs} ms`).join(" and ")}, sooner than Retry-After (${FORCED_RETRY_AFTER_SECONDS} s).`,
      evidence,
      fix: "On a 429, wait at least the Retry-After header's seconds before sending the request again.",
    });
  }
  if (retries.some((retry) => retry.waitedMs === null)) {
    return inconclusive({ ...base, summary: "A forced 429 was not retried before the phase ended.", evidence });
  }
  return passed({ ...base, summary: `Each of the ${forced.length} forced 429s was retried after Retry-After had passed.`, evidence });
}

/** After the run changed the subject's records: the change feed read, and no category or snapshot read again. */
function gradeChangeFeed(run: RunRow, requests: ObservedRequest[]): Grade {
  const base = { id: "change_feed", title: "Changes read from the saved changeCursor" };
  if (!run.sourceAdvancedAt || !run.subjectId) {
    return inconclusive({ ...base, summary: "The phase ended before the run changed the subject's records.", evidence: { feedReads: 0, fullReads: 0 } });
  }
  const changedAt = run.sourceAdvancedAt.getTime();
  const after = requests.filter((request) => isRecordRead(request) && request.subjectId === run.subjectId && request.startedAt >= changedAt);
  const feed = after.filter((request) => request.route === ROUTES.changes && succeeded(request));
  const full = after.filter((request) => request.route !== ROUTES.changes && succeeded(request));
  const evidence = {
    feedReads: feed.length,
    fullReads: full.length,
    msToFirstFeedRead: feed[0] ? feed[0].startedAt - changedAt : null,
    feedRequestIds: feed.map((request) => request.requestId),
    fullReadRequestIds: full.map((request) => request.requestId),
  };
  if (full.length > 0) {
    return failed({
      ...base,
      summary: `After the records changed, the integration read the whole category or snapshot ${full.length} time(s) instead of only the change feed.`,
      evidence,
      fix: "On records.updated, read GET /users/{subject}/records/{category}/changes from the saved meta.changeCursor (then each nextCursor), not the category again.",
    });
  }
  if (feed.length === 0) {
    return inconclusive({ ...base, summary: "The records changed, but no read of the change feed was observed before the phase ended.", evidence });
  }
  return passed({ ...base, summary: `The change was read from the change feed (${feed.length} read(s)), without re-reading the category.`, evidence });
}

async function gradeRevocation(run: RunRow, requests: ObservedRequest[]): Promise<Grade[]> {
  const base = { id: "stops_on_revocation", title: "No record read after the revocation was signalled" };
  if (!run.revokedAt || !run.subjectId) {
    return [inconclusive({ ...base, summary: "The phase ended before consent was revoked.", evidence: { readsAfterSignal: 0 } })];
  }
  const signal = await revocationSignal(run, requests);
  const revokedAt = run.revokedAt.getTime();
  const reads = requests.filter((request) => isRecordRead(request) && request.subjectId === run.subjectId && request.startedAt >= revokedAt);
  if (!signal) {
    return [inconclusive({ ...base, summary: "Consent was revoked, but no consent.revoked delivery or refused read signalled it before the phase ended.", evidence: { readsAfterRevocation: reads.length } })];
  }
  const after = reads.filter((request) => request.startedAt >= signal.at && request.requestId !== signal.requestId);
  const evidence = {
    signalledBy: signal.by,
    msFromRevocationToSignal: signal.at - revokedAt,
    readsAfterRevocation: reads.length,
    readsAfterSignal: after.length,
    readRequestIds: after.map((request) => request.requestId),
    readStatuses: after.map((request) => request.status),
  };
  if (after.length > 0) {
    return [
      failed({
        ...base,
        summary: `The integration read the subject's records ${after.length} time(s) after the revocation was signalled (${signal.by === "webhook" ? "consent.revoked delivered" : "a read answered 404"}).`,
        evidence,
        fix: "On consent.revoked (or a 404 for the subject), stop reading that subject: delete its data and drop its cursors.",
      }),
    ];
  }
  return [passed({ ...base, summary: `No record of the subject was read after the revocation was signalled (${signal.by === "webhook" ? "consent.revoked delivered" : "a read answered 404"}).`, evidence })];
}

const CORRUPTED: readonly ProbeKind[] = ["bad_signature", "tampered_body", "stale_timestamp", "wrong_secret"];
const accepted = (answer: ProbeAnswer | undefined) => answer?.status != null && answer.status >= 200 && answer.status < 300;
const rejected = (answer: ProbeAnswer | undefined) => answer?.status != null && answer.status >= 400 && answer.status < 500;

/** Valid: 2xx. Each corrupted one: 4xx. The redelivery of an accepted event: 2xx again. */
function gradeProbes(answers: ProbeAnswer[] | null): Grade[] {
  const valid = { id: "webhook_valid", title: "Correctly signed webhooks accepted (2xx)" };
  const corrupted = { id: "webhook_corrupted", title: "Corrupted webhooks rejected (4xx)" };
  const redelivery = { id: "webhook_redelivery", title: "A redelivered webhook accepted (2xx)" };
  if (!answers || answers.length === 0) {
    const summary = answers ? "The application has no webhook URL, so no probe could be sent." : "The phase ended before the probes were sent.";
    return [valid, corrupted, redelivery].map((check) => inconclusive({ ...check, summary, evidence: { probesSent: 0 } }));
  }
  const byKind = (kind: ProbeKind) => answers.find((answer) => answer.kind === kind);
  const evidenceOf = (kinds: readonly ProbeKind[]) =>
    Object.fromEntries(kinds.flatMap((kind) => [[`${camel(kind)}Status`, byKind(kind)?.status ?? null], [`${camel(kind)}WebhookId`, byKind(kind)?.webhookId ?? null]]));

  const validAnswer = byKind("valid");
  const validGrade = accepted(validAnswer)
    ? passed({ ...valid, summary: `The correctly signed probe was answered ${validAnswer!.status}.`, evidence: evidenceOf(["valid"]) })
    : failed({
        ...valid,
        summary: `The correctly signed probe was answered ${validAnswer?.status ?? validAnswer?.error ?? "nothing"}.`,
        evidence: evidenceOf(["valid"]),
        fix: "Answer 2xx to every delivery whose signature verifies, including event types you do not handle.",
      });

  const accepting = CORRUPTED.filter((kind) => !rejected(byKind(kind)));
  const corruptedGrade =
    accepting.length === 0
      ? passed({ ...corrupted, summary: "Each corrupted probe (bad signature, tampered body, stale timestamp, wrong secret) was answered 4xx.", evidence: evidenceOf(CORRUPTED) })
      : failed({
          ...corrupted,
          summary: `Not rejected with 4xx: ${accepting.map((kind) => `${kind.replace("_", " ")} (${byKind(kind)?.status ?? byKind(kind)?.error ?? "no answer"})`).join(", ")}.`,
          evidence: evidenceOf(CORRUPTED),
          fix: "Verify every delivery with the Standard Webhooks library and your signing secret (signature, body and the 5-minute timestamp tolerance); answer 400 when it fails.",
        });

  const retry = byKind("redelivery");
  const redeliveryGrade = !accepted(validAnswer)
    ? inconclusive({ ...redelivery, summary: "The original delivery was not accepted, so its retry cannot be told apart from it.", evidence: evidenceOf(["valid", "redelivery"]) })
    : accepted(retry)
      ? passed({ ...redelivery, summary: `The retry of an accepted event (same webhook-id, fresh timestamp) was answered ${retry!.status}.`, evidence: evidenceOf(["valid", "redelivery"]) })
      : failed({
          ...redelivery,
          summary: `The retry of an accepted event (same webhook-id, fresh timestamp) was answered ${retry?.status ?? retry?.error ?? "nothing"}.`,
          evidence: evidenceOf(["valid", "redelivery"]),
          fix: "Answer 2xx to a webhook-id you already processed (and skip processing it again): a sender retries when it missed your answer.",
        });
  return [validGrade, corruptedGrade, redeliveryGrade];
}

const camel = (kind: string) => kind.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());

/** Passed when every check passed, failed when any failed, otherwise inconclusive. */
export function verdictOf(checks: readonly Check[]): Check["status"] {
  if (checks.some((check) => check.status === "failed")) return "failed";
  if (checks.length > 0 && checks.every((check) => check.status === "passed")) return "passed";
  return "inconclusive";
}
