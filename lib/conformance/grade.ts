import { FORCED_RETRY_AFTER_SECONDS, IN_FLIGHT_ALLOWANCE_MS, RETRY_TOLERANCE_MS, WATCH_MS, type Phase } from "./limits";
import { isFullRead, isRecordRead, ROUTES, succeeded, type ObservedRequest } from "./observations";
import type { RunFacts } from "./run-facts";
import { forcedOf, probesOf, type ProbeAnswer, type ProbeKind } from "./run-row";
import type { Check } from "./schemas";
import { describeSignal, recordsChange, revocationSignal } from "./signals";

type Grade = Omit<Check, "phase">;

const passed = (grade: Omit<Grade, "status" | "fix">): Grade => ({ ...grade, status: "passed", fix: null });
const inconclusive = (grade: Omit<Grade, "status" | "fix">): Grade => ({ ...grade, status: "inconclusive", fix: null });
const failed = (grade: Omit<Grade, "status">): Grade => ({ ...grade, status: "failed" });

/** "1 time", "3 times": counts in summaries read as sentences. */
export const times = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * Grades what the run observed in one phase, up to `until` (when the phase ended). Every grader is a pure function
 * of the run's facts: reads from the run key's request log rows, the session, the subject's events with their
 * delivery answers and the probe answers. Evidence holds counts, timings, status codes and request ids only: the
 * public report shows it as it is.
 */
export function gradePhase(facts: RunFacts, phase: Phase, until: number): Check[] {
  const seen: RunFacts = { ...facts, requests: facts.requests.filter((request) => request.startedAt <= until) };
  return GRADERS[phase](seen, until).map((grade) => ({ ...grade, phase }));
}

const GRADERS: Record<Phase, (facts: RunFacts, until: number) => Grade[]> = {
  session: (facts) => [gradeSession(facts)],
  rate_limits: (facts, until) => [gradeRetryAfter(facts), ...(facts.run.syncMode === "continuous" ? [gradeChangeFeed(facts, until)] : [])],
  consent_revocation: (facts, until) => [gradeRevocation(facts, until)],
  webhook_probes: (facts) => gradeProbes(probesOf(facts.run)),
};

export function gradeSession({ run, session, requests }: RunFacts): Grade {
  const created = requests.find((request) => request.route === ROUTES.createSession && succeeded(request));
  const base = { id: "connect_session", title: "Connect session created with the run key" };
  const evidence = {
    createRequestId: created?.requestId ?? null,
    secondsToSession: session ? Math.round((session.createdAt - run.createdAt.getTime()) / 1000) : null,
    sessionStatus: session?.status ?? null,
    simulationState: session?.simulationState ?? null,
  };
  if (session?.status === "completed") {
    return passed({ ...base, summary: "The integration created a Connect session with the run key, and it completed as the scenario's patient.", evidence });
  }
  return inconclusive({ ...base, summary: "No Connect session created with the run key completed.", evidence });
}

/** Each forced 429 against the next read of the same route and subject: it must start Retry-After or more later. */
export function gradeRetryAfter({ run, requests }: RunFacts): Grade {
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
      summary: `${early.length} of ${forced.length} forced 429s ${early.length === 1 ? "was" : "were"} retried after ${early.map((retry) => `${retry.waitedMs} ms`).join(" and ")}, sooner than Retry-After (${FORCED_RETRY_AFTER_SECONDS} s).`,
      evidence,
      fix: "On a 429, wait at least the Retry-After header's seconds before sending the request again.",
    });
  }
  if (retries.some((retry) => retry.waitedMs === null)) {
    return inconclusive({ ...base, summary: "A forced 429 was not retried before the phase ended.", evidence });
  }
  return passed({ ...base, summary: `Each of the ${times(forced.length, "forced 429")} was retried after Retry-After had passed.`, evidence });
}

/**
 * After the run changed the subject's records: the change feed read, and no read from the start (the snapshot, or
 * a category's first page) that started after the change was written, watched for WATCH_MS.
 */
export function gradeChangeFeed(facts: RunFacts, until: number): Grade {
  const { run, requests } = facts;
  const base = { id: "change_feed", title: "Changes read from the saved changeCursor" };
  if (!run.sourceAdvancedAt || !run.subjectId) {
    return inconclusive({ ...base, summary: "The phase ended before the run changed the subject's records.", evidence: { feedReads: 0, fullReads: 0 } });
  }
  const change = recordsChange(facts, until);
  if (!change) {
    return inconclusive({ ...base, summary: "The run advanced the subject's source, but no change had landed before the phase ended.", evidence: { feedReads: 0, fullReads: 0 } });
  }
  const subjectReads = requests.filter((request) => isRecordRead(request) && request.subjectId === run.subjectId && request.startedAt <= until);
  const feed = subjectReads.filter((request) => request.route === ROUTES.changes && succeeded(request) && request.startedAt >= change.at);
  // No allowance here: every category's first page was read before the run made its change (the phase's rule), so
  // a read from the start that begins after the change is a re-read, however soon after (a records.updated webhook
  // arrives within milliseconds of the change).
  const full = subjectReads.filter((request) => isFullRead(request) && request.startedAt >= change.at);
  const watchedMs = until - change.at;
  const evidence = {
    feedReads: feed.length,
    fullReads: full.length,
    watchedMs,
    webhookAccepted: change.acceptedDeliveryAt !== null,
    msToFirstFeedRead: feed[0] ? feed[0].startedAt - change.at : null,
    feedRequestIds: feed.map((request) => request.requestId),
    fullReadRequestIds: full.map((request) => request.requestId),
  };
  if (full.length > 0) {
    return failed({
      ...base,
      summary: `After the records changed, the integration read the snapshot or a category from its first page ${times(full.length, "time")} instead of only the change feed.`,
      evidence,
      fix: "On records.updated, read GET /users/{subject}/records/{category}/changes from the saved meta.changeCursor (then each nextCursor), not the category again.",
    });
  }
  if (feed.length === 0) {
    return inconclusive({ ...base, summary: "The records changed, but no read of the change feed was observed before the phase ended.", evidence });
  }
  if (watchedMs < WATCH_MS) {
    return inconclusive({ ...base, summary: `The change was read from the change feed, but the phase ended ${seconds(watchedMs)} after the change, before the ${seconds(WATCH_MS)} window for re-reads had passed.`, evidence });
  }
  return passed({ ...base, summary: `The change was read from the change feed (${times(feed.length, "read")}), and no category was read again in the ${seconds(watchedMs)} watched.`, evidence });
}

/**
 * No read of the subject that started IN_FLIGHT_ALLOWANCE_MS or more after the integration was told of the
 * revocation (revocationSignal), watched from the signal until `until` (the run's end): failed on such a read,
 * inconclusive without a signal or when fewer than WATCH_MS were watched.
 */
export function gradeRevocation(facts: RunFacts, until: number): Grade {
  const { run, requests } = facts;
  const base = { id: "stops_on_revocation", title: "No record read after the revocation was signalled" };
  if (!run.revokedAt || !run.subjectId) {
    return inconclusive({ ...base, summary: "The phase ended before consent was revoked.", evidence: { readsAfterSignal: 0 } });
  }
  const revokedAt = run.revokedAt.getTime();
  const reads = requests.filter((request) => isRecordRead(request) && request.subjectId === run.subjectId && request.startedAt >= revokedAt && request.startedAt <= until);
  const signal = revocationSignal(facts, until);
  if (!signal) {
    return inconclusive({
      ...base,
      summary:
        "Consent was revoked, but nothing told the integration before the check ended: no consent.revoked delivery was answered 2xx, no read of the subject was answered 404 and the revoked receipt was not read.",
      evidence: { signalledBy: null, readsAfterRevocation: reads.length, readsAfterSignal: 0 },
    });
  }
  const after = reads.filter((request) => request.startedAt >= signal.at + IN_FLIGHT_ALLOWANCE_MS && request.requestId !== signal.requestId);
  const watchedMs = until - signal.at;
  const evidence = {
    signalledBy: signal.by,
    msFromRevocationToSignal: signal.at - revokedAt,
    allowanceMs: IN_FLIGHT_ALLOWANCE_MS,
    watchedMs,
    readsAfterRevocation: reads.length,
    readsAfterSignal: after.length,
    msFromSignalToFirstRead: after[0] ? after[0].startedAt - signal.at : null,
    readRequestIds: after.map((request) => request.requestId),
    readStatuses: after.map((request) => request.status),
  };
  if (after.length > 0) {
    return failed({
      ...base,
      summary: `The integration read the subject's records ${times(after.length, "time")} after it was told of the revocation (${describeSignal(signal)}).`,
      evidence,
      fix: "On consent.revoked (or a 404 for the subject), stop reading that subject: delete its data and drop its cursors.",
    });
  }
  if (watchedMs < WATCH_MS) {
    return inconclusive({
      ...base,
      summary: `No read of the subject was seen after ${describeSignal(signal)}, but the run was watched for only ${seconds(watchedMs)} of the ${seconds(WATCH_MS)} the check needs.`,
      evidence,
    });
  }
  return passed({ ...base, summary: `No record of the subject was read in the ${seconds(watchedMs)} after ${describeSignal(signal)}.`, evidence });
}

const CORRUPTED: readonly ProbeKind[] = ["bad_signature", "tampered_body", "stale_timestamp", "wrong_secret"];
const accepted = (answer: ProbeAnswer | undefined) => answer?.status != null && answer.status >= 200 && answer.status < 300;
const rejected = (answer: ProbeAnswer | undefined) => answer?.status != null && answer.status >= 400 && answer.status < 500;
/** What a probe got, as words that fit "was answered …" or stand alone: "HTTP 500", "no HTTP answer (timeout)". */
function answerOf(answer: ProbeAnswer | undefined): string {
  if (answer?.status != null) return `HTTP ${answer.status}`;
  if (!answer?.error) return "no HTTP answer";
  return answer.error.startsWith("no HTTP answer") ? answer.error : `no HTTP answer (${answer.error})`;
}

/** Valid: 2xx. Each corrupted one: 4xx. The redelivery of an accepted event: 2xx again. */
export function gradeProbes(answers: ProbeAnswer[] | null): Grade[] {
  const valid = { id: "webhook_valid", title: "Correctly signed webhooks accepted (2xx)" };
  const corrupted = { id: "webhook_corrupted", title: "Corrupted webhooks rejected (4xx)" };
  const redelivery = { id: "webhook_redelivery", title: "A redelivered webhook accepted (2xx)" };
  if (!answers || answers.length === 0) {
    const summary = answers ? "The application has no webhook URL, so no probe could be sent." : "The phase ended before the probes were sent.";
    return [valid, corrupted, redelivery].map((check) => inconclusive({ ...check, summary, evidence: { probesSent: 0 } }));
  }
  const byKind = (kind: ProbeKind) => answers.find((answer) => answer.kind === kind);
  const evidenceOf = (kinds: readonly ProbeKind[]) =>
    Object.fromEntries(
      kinds.flatMap((kind) => [
        [`${camel(kind)}Status`, byKind(kind)?.status ?? null],
        [`${camel(kind)}Error`, byKind(kind)?.error ?? null],
        [`${camel(kind)}WebhookId`, byKind(kind)?.webhookId ?? null],
      ]),
    );

  const validAnswer = byKind("valid");
  const validGrade = accepted(validAnswer)
    ? passed({ ...valid, summary: `The correctly signed probe was answered HTTP ${validAnswer!.status}.`, evidence: evidenceOf(["valid"]) })
    : failed({
        ...valid,
        summary: `The correctly signed probe got ${answerOf(validAnswer)} instead of a 2xx.`,
        evidence: evidenceOf(["valid"]),
        fix: "Answer 2xx to every delivery whose signature verifies, including event types you do not handle.",
      });

  const accepting = CORRUPTED.filter((kind) => !rejected(byKind(kind)));
  const corruptedGrade =
    accepting.length === 0
      ? passed({ ...corrupted, summary: "Each corrupted probe (bad signature, tampered body, stale timestamp, wrong secret) was answered 4xx.", evidence: evidenceOf(CORRUPTED) })
      : failed({
          ...corrupted,
          summary: `${accepting.length === 1 ? "One corrupted probe was" : `${accepting.length} corrupted probes were`} not rejected with a 4xx: ${accepting.map((kind) => `${kind.replace("_", " ")} (${answerOf(byKind(kind))})`).join(", ")}.`,
          evidence: evidenceOf(CORRUPTED),
          fix: "Verify every delivery with the Standard Webhooks library and your signing secret (signature, body and the 5-minute timestamp tolerance); answer 400 when it fails.",
        });

  const retry = byKind("redelivery");
  const redeliveryGrade = !accepted(validAnswer)
    ? inconclusive({ ...redelivery, summary: "The original probe was not accepted, so its redelivery cannot be told apart from it.", evidence: evidenceOf(["valid", "redelivery"]) })
    : accepted(retry)
      ? passed({ ...redelivery, summary: `The redelivery of an accepted probe (same webhook-id, fresh timestamp) was answered HTTP ${retry!.status}.`, evidence: evidenceOf(["valid", "redelivery"]) })
      : failed({
          ...redelivery,
          summary: `The redelivery of an accepted probe (same webhook-id, fresh timestamp) got ${answerOf(retry)} instead of a 2xx.`,
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

/**
 * The run's checks once it ends: the revocation check graded again over everything seen until the end, since the
 * subject's reads are watched until the run ends (a read after the signal during the probes counts too).
 */
export function finalChecks(checks: readonly Check[], facts: RunFacts, endedAt: number): Check[] {
  return checks.map((check) => (check.id === "stops_on_revocation" ? { ...gradeRevocation(facts, endedAt), phase: check.phase } : check));
}

export type { ObservedRequest };
