import { SIGNAL_WAIT_MS, WATCH_MS } from "./limits";
import { categoryOf, isRecordRead, ROUTES, succeeded, type ObservedRequest } from "./observations";
import type { ObservedEvent, RunFacts } from "./run-facts";

/**
 * How the integration could first know of the revocation: a consent.revoked delivery it accepted (2xx), a read of
 * the subject answered 404, or a read of the subject's receipt answered after the receipt was revoked.
 */
export type RevocationSignal = { at: number; by: "webhook" | "not_found" | "receipt"; requestId: string | null };

const accepted = (status: number | null) => status !== null && status >= 200 && status < 300;

/** The end of the first delivery attempt of an event of this type that the integration answered 2xx. */
function firstAcceptedDelivery(events: readonly ObservedEvent[], type: ObservedEvent["type"], since: number): number | null {
  const ends = events
    .filter((event) => event.type === type && event.createdAt >= since)
    .flatMap((event) => event.attempts.filter((attempt) => accepted(attempt.status)).map((attempt) => attempt.endedAt));
  return ends.length > 0 ? Math.min(...ends) : null;
}

/**
 * The moment the integration could first know that consent was revoked, whichever came first: the end of the first
 * consent.revoked delivery attempt it answered 2xx (a delivery it refused or never answered told it nothing), the
 * answer to its first read of the subject refused 404, or the answer to a read of the revoked receipt. Null while
 * none has happened up to `until`.
 */
export function revocationSignal(facts: RunFacts, until = Number.POSITIVE_INFINITY): RevocationSignal | null {
  const { run, requests, events, receipts } = facts;
  if (!run.revokedAt || !run.subjectId) return null;
  const revokedAt = run.revokedAt.getTime();
  const candidates: RevocationSignal[] = [];
  const webhookAt = firstAcceptedDelivery(events, "consent.revoked", revokedAt);
  if (webhookAt !== null) candidates.push({ at: webhookAt, by: "webhook", requestId: null });
  const refused = requests.find((request) => isRecordRead(request) && request.subjectId === run.subjectId && request.startedAt >= revokedAt && request.status === 404);
  if (refused) candidates.push({ at: refused.at, by: "not_found", requestId: refused.requestId });
  const receiptRead = requests.find(
    (request) =>
      request.route === ROUTES.receipt &&
      succeeded(request) &&
      receipts.some((receipt) => receipt.revokedAt !== null && request.startedAt >= receipt.revokedAt && request.path.endsWith(`/${receipt.id}`)),
  );
  if (receiptRead) candidates.push({ at: receiptRead.at, by: "receipt", requestId: receiptRead.requestId });
  return candidates.filter((candidate) => candidate.at <= until).sort((a, b) => a.at - b.at)[0] ?? null;
}

/** The run's change to the subject's records: when its records.updated event was written, and its first accepted delivery. */
export type RecordsChange = { at: number; acceptedDeliveryAt: number | null };

/** The change the run made (the first records.updated after it advanced the source), or null before it landed. */
export function recordsChange(facts: RunFacts, until = Number.POSITIVE_INFINITY): RecordsChange | null {
  const { run, events } = facts;
  if (!run.sourceAdvancedAt) return null;
  const advancedAt = run.sourceAdvancedAt.getTime();
  const change = events.find((event) => event.type === "records.updated" && event.createdAt >= advancedAt && event.createdAt <= until);
  if (!change) return null;
  return { at: change.createdAt, acceptedDeliveryAt: firstAcceptedDelivery([change], "records.updated", advancedAt) };
}

export const describeSignal = (signal: RevocationSignal) =>
  signal.by === "webhook"
    ? "the integration accepted the consent.revoked webhook"
    : signal.by === "not_found"
      ? "a read of the subject was answered 404"
      : "a read of the receipt showed it revoked";

/** Each shared category was read successfully from the start: its first page, or a snapshot (which holds them all). */
export function everyCategoryRead(reads: readonly ObservedRequest[], subjectId: string, categories: readonly string[]): boolean {
  const ok = reads.filter((read) => isRecordRead(read) && read.subjectId === subjectId && succeeded(read));
  if (ok.some((read) => read.route === ROUTES.snapshot)) return true;
  const read = new Set(ok.filter((request) => request.route === ROUTES.category && !request.withCursor).map(categoryOf));
  return categories.every((category) => read.has(category));
}

/** A continuous run's change has been watched long enough: the feed was read and WATCH_MS passed, or SIGNAL_WAIT_MS since the advance. */
export function changeWatchOver(facts: RunFacts, now: number): boolean {
  const { run, requests } = facts;
  if (!run.sourceAdvancedAt) return false;
  if (now - run.sourceAdvancedAt.getTime() >= SIGNAL_WAIT_MS) return true;
  const change = recordsChange(facts, now);
  if (!change || now - change.at < WATCH_MS) return false;
  return requests.some((read) => read.route === ROUTES.changes && read.subjectId === run.subjectId && succeeded(read) && read.startedAt >= change.at);
}

/** The revocation has been watched long enough: WATCH_MS after the signal, or SIGNAL_WAIT_MS after the revocation without one. */
export function revocationWatchOver(facts: RunFacts, now: number): boolean {
  if (!facts.run.revokedAt) return false;
  const signal = revocationSignal(facts, now);
  return signal ? now - signal.at >= WATCH_MS : now - facts.run.revokedAt.getTime() >= SIGNAL_WAIT_MS;
}
