import { describe, expect, it } from "vitest";
import { finalChecks, gradeChangeFeed, gradePhase, gradeProbes, gradeRetryAfter, gradeRevocation, gradeSession, verdictOf } from "./grade";
import { IN_FLIGHT_ALLOWANCE_MS, SIGNAL_WAIT_MS, WATCH_MS } from "./limits";
import { ROUTES, type ObservedRequest } from "./observations";
import type { ObservedEvent, RunFacts } from "./run-facts";
import type { ProbeAnswer, RunRow } from "./run-row";
import type { Check } from "./schemas";
import { changeWatchOver, everyCategoryRead, revocationSignal, revocationWatchOver } from "./signals";

// Recorded timelines, in milliseconds from T: rows in, grade out. Every grader is a pure function of a run's facts.
const T = Date.parse("2026-12-01T10:00:00.000Z");
const SUBJECT = "u_grade0000000000000000000";
const RECEIPT = "cr_grade000000000000000000";

function runRow(overrides: Partial<RunRow> = {}): RunRow {
  return {
    id: "run_grade",
    applicationId: "app_grade",
    scenario: "baseline-adult",
    syncMode: "one_time",
    status: "open",
    phase: "consent_revocation",
    phaseStartedAt: new Date(T),
    timeline: [],
    checks: [],
    verdict: null,
    connectSessionId: "cs_grade",
    subjectId: SUBJECT,
    forcedRateLimits: 2,
    forced: [],
    sourceAdvancedAt: null,
    revokedAt: new Date(T),
    probesStartedAt: null,
    probes: null,
    reportToken: "token",
    reportExpiresAt: null,
    expiresAt: new Date(T + 3_600_000),
    endedAt: null,
    createdAt: new Date(T - 60_000),
    updatedAt: new Date(T),
    ...overrides,
  } as RunRow;
}

let sequence = 0;
/** A request that started at `start` and was answered `latency` ms later. */
function request(start: number, options: Partial<ObservedRequest> & { latency?: number } = {}): ObservedRequest {
  const { latency = 20, ...rest } = options;
  const route = rest.route ?? ROUTES.category;
  return {
    requestId: `req_${++sequence}`,
    route,
    path: route === ROUTES.receipt ? `/api/v1/consents/${RECEIPT}` : `/api/v1/users/${SUBJECT}/records/labs${route === ROUTES.changes ? "/changes" : ""}`,
    subjectId: route === ROUTES.receipt ? null : SUBJECT,
    status: 200,
    errorCode: null,
    withCursor: route === ROUTES.changes,
    startedAt: T + start,
    at: T + start + latency,
    ...rest,
  };
}

const delivery = (type: ObservedEvent["type"], createdAt: number, attempts: [status: number | null, endedAt: number][]): ObservedEvent => ({
  type,
  createdAt: T + createdAt,
  attempts: attempts.map(([status, endedAt]) => ({ status, endedAt: T + endedAt })),
});

function facts(overrides: Partial<RunFacts> = {}): RunFacts {
  return {
    run: runRow(),
    session: { status: "completed", createdAt: T - 50_000, simulationState: "completed", grantedCategories: ["labs", "medications"] },
    requests: [],
    events: [],
    receipts: [{ id: RECEIPT, revokedAt: T + 5 }],
    ...overrides,
  };
}

describe("stops_on_revocation", () => {
  it("the signal is the end of the first consent.revoked attempt the integration answered 2xx, not its claim or an unanswered one", () => {
    const events = [delivery("consent.revoked", 10, [[null, 400], [500, 900], [200, 1_500]])];
    expect(revocationSignal(facts({ events }))).toEqual({ at: T + 1_500, by: "webhook", requestId: null });
  });

  it("a read that left before the delivery was answered is not a read after the signal (the race a correct integration lost)", () => {
    // The delivery was claimed at 10 ms and answered at 300 ms; the read left at 77 ms, before the POST even began.
    const inFlight = request(77, { latency: 400 });
    const grade = gradeRevocation(facts({ requests: [inFlight], events: [delivery("consent.revoked", 10, [[200, 300]])] }), T + 300 + WATCH_MS);
    expect(grade.status).toBe("passed");
    expect(grade.evidence).toMatchObject({ signalledBy: "webhook", readsAfterSignal: 0, readsAfterRevocation: 1 });
  });

  it("reads that start within the allowance after the signal are in flight; one that starts at the allowance counts", () => {
    const events = [delivery("consent.revoked", 10, [[200, 300]])];
    const inAllowance = request(300 + IN_FLIGHT_ALLOWANCE_MS - 1);
    expect(gradeRevocation(facts({ events, requests: [inAllowance] }), T + 300 + WATCH_MS).status).toBe("passed");
    const late = request(300 + IN_FLIGHT_ALLOWANCE_MS);
    const grade = gradeRevocation(facts({ events, requests: [inAllowance, late] }), T + 300 + WATCH_MS);
    expect(grade.status).toBe("failed");
    expect(grade.evidence).toMatchObject({ readsAfterSignal: 1, readRequestIds: [late.requestId], msFromSignalToFirstRead: IN_FLIGHT_ALLOWANCE_MS });
    expect(grade.summary).toBe("The integration read the subject's records 1 time after it was told of the revocation (the integration accepted the consent.revoked webhook).");
  });

  it("an integration polling a revoked subject every 3 s fails however late its first poll after the signal", () => {
    const events = [delivery("consent.revoked", 10, [[200, 300]])];
    const polls = [2_900, 5_900, 8_900, 11_900, 14_900].map((start) => request(start, { status: 404, errorCode: "not_found" }));
    const grade = gradeRevocation(facts({ events, requests: polls }), T + 300 + WATCH_MS);
    expect(grade.status).toBe("failed");
    expect(grade.evidence.readsAfterSignal).toBe(5);
    expect(grade.summary).toContain("5 times");
  });

  it("an early advance leaves it inconclusive, never passed; reads seen before the advance still fail it", () => {
    const events = [delivery("consent.revoked", 10, [[200, 300]])];
    const early = gradeRevocation(facts({ events }), T + 1_300);
    expect(early.status).toBe("inconclusive");
    expect(early.summary).toMatch(/watched for only 1 s of the 15 s/);
    expect(gradeRevocation(facts({ events, requests: [request(1_300)] }), T + 1_400).status).toBe("failed");
  });

  it("a delivery never answered tells the integration nothing: without a 404 or a receipt read there is no signal, and the summary says so", () => {
    const events = [delivery("consent.revoked", 10, [[null, 5_010]])];
    const grade = gradeRevocation(facts({ events }), T + SIGNAL_WAIT_MS);
    expect(grade.status).toBe("inconclusive");
    expect(grade.summary).toContain("no consent.revoked delivery was answered 2xx");
    expect(grade.summary).not.toContain("delivered");
  });

  it("a refused delivery falls back to the first 404 as the signal: the reads before it are not held against the integration", () => {
    const events = [delivery("consent.revoked", 10, [[400, 100]])];
    const polls = [request(1_000), request(2_000), request(3_000, { status: 404, errorCode: "not_found" })];
    const signal = revocationSignal(facts({ events, requests: polls }));
    expect(signal).toEqual({ at: T + 3_020, by: "not_found", requestId: polls[2]!.requestId });
    expect(gradeRevocation(facts({ events, requests: polls }), T + 3_020 + WATCH_MS).status).toBe("passed");
  });

  it("a read of the revoked receipt is a signal too; one before the receipt was revoked is not", () => {
    const before = request(0, { route: ROUTES.receipt });
    const after = request(2_000, { route: ROUTES.receipt });
    expect(revocationSignal(facts({ requests: [before] }))).toBeNull();
    expect(revocationSignal(facts({ requests: [before, after] }))).toMatchObject({ by: "receipt", at: T + 2_020 });
    const elsewhere = request(2_000, { route: ROUTES.receipt, path: "/api/v1/consents/cr_another00000000000000000" });
    expect(revocationSignal(facts({ requests: [elsewhere] }))).toBeNull();
  });

  it("reads are watched until the run ends: one during the probes phase fails the check graded again at the end", () => {
    const events = [delivery("consent.revoked", 10, [[200, 300]])];
    const phaseEnd = T + 300 + WATCH_MS;
    const [graded] = gradePhase(facts({ events }), "consent_revocation", phaseEnd);
    expect(graded!.status).toBe("passed");
    const duringProbes = request(phaseEnd - T + 500);
    const [final] = finalChecks([graded!], facts({ events, requests: [duringProbes] }), phaseEnd + 2_000);
    expect(final).toMatchObject({ id: "stops_on_revocation", phase: "consent_revocation", status: "failed" });
  });

  it("the phase ends WATCH_MS after the signal, or SIGNAL_WAIT_MS after the revocation when nothing told the integration", () => {
    const events = [delivery("consent.revoked", 10, [[200, 300]])];
    expect(revocationWatchOver(facts({ events }), T + 300 + WATCH_MS - 1)).toBe(false);
    expect(revocationWatchOver(facts({ events }), T + 300 + WATCH_MS)).toBe(true);
    expect(revocationWatchOver(facts(), T + SIGNAL_WAIT_MS - 1)).toBe(false);
    expect(revocationWatchOver(facts(), T + SIGNAL_WAIT_MS)).toBe(true);
  });

  it("before the revocation there is nothing to grade", () => {
    expect(gradeRevocation(facts({ run: runRow({ revokedAt: null }) }), T + 60_000)).toMatchObject({ status: "inconclusive", summary: "The phase ended before consent was revoked." });
  });
});

describe("change_feed", () => {
  const advanced = runRow({ syncMode: "continuous", phase: "rate_limits", revokedAt: null, sourceAdvancedAt: new Date(T) });
  const change = [delivery("records.updated", 200, [[200, 400]])];

  it("passes with the feed read after the change and later pages of a walk begun before it", () => {
    const requests = [request(100), request(1_000, { route: ROUTES.changes }), request(3_000, { withCursor: true })];
    const grade = gradeChangeFeed(facts({ run: advanced, events: change, requests }), T + 200 + WATCH_MS);
    expect(grade).toMatchObject({ status: "passed", evidence: { feedReads: 1, fullReads: 0, webhookAccepted: true } });
  });

  it("fails on a snapshot or a category read from its first page after the change, however soon after", () => {
    for (const reread of [request(210), request(2_000, { route: ROUTES.snapshot })]) {
      const requests = [request(1_000, { route: ROUTES.changes }), reread];
      const grade = gradeChangeFeed(facts({ run: advanced, events: change, requests }), T + 200 + WATCH_MS);
      expect(grade.status).toBe("failed");
      expect(grade.evidence.fullReadRequestIds).toEqual([reread.requestId]);
    }
  });

  it("is inconclusive without a feed read, before the change landed, or when the window was cut short", () => {
    expect(gradeChangeFeed(facts({ run: advanced, events: change }), T + 200 + WATCH_MS).status).toBe("inconclusive");
    expect(gradeChangeFeed(facts({ run: advanced }), T + 200 + WATCH_MS).summary).toContain("no change had landed");
    const requests = [request(1_000, { route: ROUTES.changes })];
    expect(gradeChangeFeed(facts({ run: advanced, events: change, requests }), T + 5_000).status).toBe("inconclusive");
    expect(gradeChangeFeed(facts({ run: runRow({ syncMode: "continuous" }) }), T).summary).toBe("The phase ended before the run changed the subject's records.");
  });

  it("the phase ends once the feed was read and WATCH_MS passed since the change, or SIGNAL_WAIT_MS after the advance", () => {
    const feed = [request(1_000, { route: ROUTES.changes })];
    expect(changeWatchOver(facts({ run: advanced, events: change, requests: feed }), T + 200 + WATCH_MS - 1)).toBe(false);
    expect(changeWatchOver(facts({ run: advanced, events: change, requests: feed }), T + 200 + WATCH_MS)).toBe(true);
    expect(changeWatchOver(facts({ run: advanced, events: change }), T + 200 + WATCH_MS)).toBe(false);
    expect(changeWatchOver(facts({ run: advanced }), T + SIGNAL_WAIT_MS)).toBe(true);
  });

  it("the records change only once every shared category was read from its first page, or a snapshot was read", () => {
    const labs = request(0);
    const medsLater = request(100, { path: `/api/v1/users/${SUBJECT}/records/medications`, withCursor: true });
    expect(everyCategoryRead([labs, medsLater], SUBJECT, ["labs", "medications"])).toBe(false);
    const meds = request(200, { path: `/api/v1/users/${SUBJECT}/records/medications` });
    expect(everyCategoryRead([labs, meds], SUBJECT, ["labs", "medications"])).toBe(true);
    expect(everyCategoryRead([labs, { ...meds, status: 429 }], SUBJECT, ["labs", "medications"])).toBe(false);
    expect(everyCategoryRead([request(0, { route: ROUTES.snapshot })], SUBJECT, ["labs", "medications"])).toBe(true);
  });
});

describe("retry_after", () => {
  const forcedAt = (start: number) => request(start, { status: 429, errorCode: "rate_limited" });

  it("fails a retry sooner than Retry-After and passes one after it", () => {
    const refused = forcedAt(0);
    const forced = [{ requestId: refused.requestId, at: new Date(refused.at).toISOString(), retryAfterSeconds: 1 }];
    const early = gradeRetryAfter(facts({ run: runRow({ forced }), requests: [refused, request(520)] }));
    expect(early).toMatchObject({ status: "failed", summary: "1 of 1 forced 429s was retried after 500 ms, sooner than Retry-After (1 s)." });
    expect(gradeRetryAfter(facts({ run: runRow({ forced }), requests: [refused, request(1_020)] })).status).toBe("passed");
    expect(gradeRetryAfter(facts({ run: runRow({ forced }), requests: [refused] })).status).toBe("inconclusive");
    expect(gradeRetryAfter(facts({ run: runRow({ forced: [] }) })).status).toBe("inconclusive");
  });
});

describe("the session and the probes", () => {
  it("the session passes only when it completed", () => {
    expect(gradeSession(facts()).status).toBe("passed");
    expect(gradeSession(facts({ session: null })).status).toBe("inconclusive");
  });

  const probes = (status: Partial<Record<ProbeAnswer["kind"], number | null>>): ProbeAnswer[] =>
    (["valid", "bad_signature", "tampered_body", "stale_timestamp", "wrong_secret", "redelivery"] as const).map((kind) => ({
      kind,
      webhookId: `evt_${kind}`,
      status: kind in status ? status[kind]! : kind === "valid" || kind === "redelivery" ? 200 : 400,
      latencyMs: 3,
      error: (kind in status ? status[kind] : 0) === null ? "no HTTP answer from the endpoint" : null,
    }));
  const byId = (grades: ReturnType<typeof gradeProbes>) => Object.fromEntries(grades.map((grade) => [grade.id, grade]));

  it("a rejected valid probe fails webhook_valid alone; its redelivery is then inconclusive", () => {
    const grades = byId(gradeProbes(probes({ valid: 400, redelivery: 400 })));
    expect([grades.webhook_valid!.status, grades.webhook_corrupted!.status, grades.webhook_redelivery!.status]).toEqual(["failed", "passed", "inconclusive"]);
  });

  it("summaries are sentences whatever the answer, a missing one included", () => {
    const grades = byId(gradeProbes(probes({ valid: null })));
    expect(grades.webhook_valid!.summary).toBe("The correctly signed probe got no HTTP answer from the endpoint instead of a 2xx.");
    expect(byId(gradeProbes(probes({ stale_timestamp: 200 }))).webhook_corrupted!.summary).toBe("One corrupted probe was not rejected with a 4xx: stale timestamp (HTTP 200).");
    expect(byId(gradeProbes(probes({ redelivery: 409 }))).webhook_redelivery!.summary).toBe(
      "The redelivery of an accepted probe (same webhook-id, fresh timestamp) got HTTP 409 instead of a 2xx.",
    );
    for (const grade of gradeProbes([])) expect(grade).toMatchObject({ status: "inconclusive", summary: "The application has no webhook URL, so no probe could be sent." });
  });

  it("the verdict: failed if any failed, passed if all passed, otherwise inconclusive", () => {
    const check = (status: Check["status"]) => ({ status }) as Check;
    expect(verdictOf([check("passed"), check("failed"), check("inconclusive")])).toBe("failed");
    expect(verdictOf([check("passed"), check("passed")])).toBe("passed");
    expect(verdictOf([check("passed"), check("inconclusive")])).toBe("inconclusive");
    expect(verdictOf([])).toBe("inconclusive");
  });
});
